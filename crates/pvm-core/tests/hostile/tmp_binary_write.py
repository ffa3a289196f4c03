# expect: OSError
with open("/tmp/blob.bin", "wb") as f:
    f.write(bytes(range(256)) * 1200)
