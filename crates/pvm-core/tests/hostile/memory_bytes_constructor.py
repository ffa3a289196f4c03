# expect: MemoryError
# cycles: 1000000000
# bytes(n) with a huge n allocates n zero bytes.
b = bytes(2**31)
print(len(b))
