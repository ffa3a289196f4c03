# seek/tell on binary files, and reading fixed-size records at offsets.
path = "/tmp/pvm_corpus_records.bin"
recs = [(i, i * i, f"name{i}".encode()) for i in range(10)]
with open(path, "wb") as f:
    for a, b, name in recs:
        f.write(a.to_bytes(2, "big") + b.to_bytes(4, "big") + name.ljust(10, b"\x00"))
    print("size", f.tell())
with open(path, "rb") as f:
    for idx in (3, 0, 9, 5):
        f.seek(idx * 16)
        raw = f.read(16)
        a = int.from_bytes(raw[:2], "big")
        b = int.from_bytes(raw[2:6], "big")
        name = raw[6:].rstrip(b"\x00").decode()
        print(idx, f.tell(), a, b, name)
    f.seek(0)
    print(len(f.read()), f.tell())
