# expect: MemoryError
# cycles: 1000000000
# String doubling: each step keeps the old string alive while building the new one.
s = "cowboy"
while True:
    s = s + s
