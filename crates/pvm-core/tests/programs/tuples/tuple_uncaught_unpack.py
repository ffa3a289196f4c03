# Ends with an uncaught ValueError from unpacking.
pairs = [(1, 2), (3, 4), (5, 6, 7)]
for p in pairs:
    a, b = p
    print(a + b)
