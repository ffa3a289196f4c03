# expect: MemoryError
# cycles: 1000000000
# Appending distinct objects forever.
items = []
i = 0
while True:
    items.append((i, str(i)))
    i += 1
