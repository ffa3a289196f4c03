# Binary files: write bytes, read them back, partial reads.
path = "/tmp/pvm_corpus_binary.bin"
data = bytes(range(256)) * 4
with open(path, "wb") as f:
    print(f.write(data))
with open(path, "rb") as f:
    head = f.read(10)
    rest = f.read()
print(head, len(rest), head + rest == data)
with open(path, "rb") as f:
    chunks = []
    while True:
        c = f.read(300)
        if not c:
            break
        chunks.append(len(c))
print(chunks)
with open(path, "ab") as f:
    f.write(b"\xff\x00tail")
with open(path, "rb") as f:
    blob = f.read()
print(len(blob), blob[-6:])
