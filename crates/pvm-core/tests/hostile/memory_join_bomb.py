# expect: MemoryError
# cycles: 1000000000
# str.join over a generator of large pieces.
big = "".join("y" * 4096 for _ in range(100000))
print(len(big))
