# Nested generator expressions and comprehensions consuming each other.
rows = ((i, j) for i in range(3) for j in range(3))
diag = [p for p in rows if p[0] == p[1]]
print(diag)
m = [[i * 3 + j for j in range(3)] for i in range(3)]
print(sum(sum(r) for r in m), [max(r) for r in m], {min(r) for r in m} == {0, 3, 6})
print(list(zip(*[iter(range(9))] * 3)))
print([list(g) for g in ((x for x in range(i)) for i in range(4))])
