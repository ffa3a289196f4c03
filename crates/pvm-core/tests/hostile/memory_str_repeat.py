# expect: MemoryError
# cycles: 1000000000
# A one-gigabyte string by repetition.
s = "x" * 10**9
print(len(s))
