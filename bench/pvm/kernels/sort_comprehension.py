# List kernel: comprehensions, sorting with keys, slicing, filtering and merging.
ROUNDS = 100
SIZE = 3000


checksum = 0
for r in range(ROUNDS):
    xs = [(i * 2654435761 + r) % 100003 for i in range(SIZE)]
    pairs = [(x % 97, x) for x in xs if x % 3]
    pairs.sort()
    by_key = sorted(xs, key=lambda v: (v % 101, -v))
    evens = [x for x in by_key if not x & 1]
    squares = [x * x % 65521 for x in evens[:500]]
    squares.sort(reverse=True)
    top = sorted(xs)[-10:]
    merged = sorted(squares[:200] + top + [p[1] for p in pairs[:200]])
    uniq = sorted(set(x // 10 for x in xs))
    matrix = [[(i * j + r) % 17 for j in range(30)] for i in range(30)]
    t = [list(col) for col in zip(*matrix)]
    diag = sum(t[i][i] for i in range(30))
    s = sum(merged[::7]) + len(uniq) + diag + pairs[len(pairs) // 2][1] + by_key[0] + squares[0]
    checksum = (checksum * 1000003 + s) % (2 ** 61 - 1)
print(f"sort_comprehension rounds={ROUNDS} checksum={checksum}")
