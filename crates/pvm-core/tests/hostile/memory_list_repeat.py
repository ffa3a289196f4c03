# expect: MemoryError
# cycles: 1000000000
# A list repetition far beyond the 10 MiB heap: must be refused before allocating.
x = [0] * 10**8
print(len(x))
