# expect: OSError
# One write larger than the 256 KiB /tmp budget.
with open("/tmp/big.txt", "w") as f:
    f.write("x" * (300 * 1024))
print("written")
