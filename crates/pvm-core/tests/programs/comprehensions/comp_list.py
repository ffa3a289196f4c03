# List comprehensions with filters, nesting and conditionals.
print([x * x for x in range(10)])
print([x for x in range(30) if x % 3 == 0 if x % 2 == 0])
print([(x, y) for x in range(4) for y in range(x, 4) if x + y == 4])
print([[y for y in range(x)] for x in range(4)])
print([s.strip().title() for s in ["  ada ", "grace", " alan  "]])
print(["even" if n % 2 == 0 else "odd" for n in range(5)])
matrix = [[1, 2, 3], [4, 5, 6]]
print([[row[i] for row in matrix] for i in range(3)])
print([c for word in ["ab", "cd"] for c in word])
print([i for i in []], [None for _ in range(2)])
