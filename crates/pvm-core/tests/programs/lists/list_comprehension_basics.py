# List construction patterns.
print([i for i in range(10) if i % 2 == 0])
print([(i, j) for i in range(3) for j in range(i)])
print([x if x > 0 else 0 for x in [-1, 2, -3, 4]])
print([[i * j for j in range(1, 4)] for i in range(1, 4)])
print([c.upper() for c in "abc" if c != "b"])
print([len(w) for w in "the quick brown fox".split()])
print(list(range(5, 0, -1)), list(range(0)), [*range(3), *"xy"])
