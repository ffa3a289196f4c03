# Tuples as dict keys and set members; hash of int tuples.
grid = {}
for i in range(3):
    for j in range(3):
        grid[(i, j)] = i * 3 + j
print(grid[(1, 2)], (2, 2) in grid, (3, 3) in grid, len(grid))
print(hash((1, 2)) == hash((1, 2)), hash((1, 2)), hash((2, 1)), hash(((1,), 2)))
s = {(1, 2), (1, 2), (2, 1)}
print(len(s), sorted(s))
try:
    hash((1, [2]))
except TypeError as e:
    print("TypeError", e)
memo = {}
def paths(r, c):
    if r == 0 or c == 0:
        return 1
    if (r, c) not in memo:
        memo[(r, c)] = paths(r - 1, c) + paths(r, c - 1)
    return memo[(r, c)]
print(paths(10, 10), len(memo))
