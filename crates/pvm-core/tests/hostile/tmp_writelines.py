# expect: OSError
# writelines with many chunks.
chunks = ["z" * 8192 + "\n" for _ in range(40)]
with open("/tmp/lines.txt", "w") as f:
    f.writelines(chunks)
