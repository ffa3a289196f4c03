# Nested lists: matrices, flattening, deep copies by hand.
m = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
print([row[1] for row in m], [m[i][i] for i in range(3)], [list(r) for r in zip(*m)])
flat = [x for row in m for x in row]
print(flat, sum(flat))
def deep_copy(v):
    if isinstance(v, list):
        return [deep_copy(x) for x in v]
    return v
n = deep_copy(m)
n[0][0] = 100
print(m[0][0], n[0][0])
def flatten(v):
    out = []
    for x in v:
        if isinstance(x, list):
            out.extend(flatten(x))
        else:
            out.append(x)
    return out
print(flatten([1, [2, [3, [4, [5]]]], [], [[6]]]))
tri = [[1]]
for i in range(8):
    prev = tri[-1]
    tri.append([1] + [prev[j] + prev[j + 1] for j in range(len(prev) - 1)] + [1])
for row in tri:
    print(row)
