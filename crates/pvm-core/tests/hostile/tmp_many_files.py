# expect: OSError
# Many small files whose total exceeds 256 KiB.
for i in range(100):
    with open(f"/tmp/part{i}.bin", "wb") as f:
        f.write(bytes(4096))
print("wrote 400 KiB")
