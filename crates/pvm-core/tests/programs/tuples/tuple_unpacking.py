# Tuple packing and unpacking forms.
a, b = 1, 2
a, b = b, a
print(a, b)
(x, y), z = (1, 2), 3
print(x, y, z)
[p, q], r = "ab", [1]
print(p, q, r)
first, *rest = (10, 20, 30)
print(first, rest, type(rest).__name__)
for i, (k, v) in enumerate([("a", 1), ("b", 2)]):
    print(i, k, v)
try:
    a, b = (1, 2, 3)
except ValueError as e:
    print("ValueError", e)
try:
    a, b, c = (1, 2)
except ValueError as e:
    print("ValueError", e)
try:
    a, *b, c = (1,)
except ValueError as e:
    print("ValueError", e)
def minmax(seq):
    return min(seq), max(seq)
lo, hi = minmax([4, 8, 1])
print(lo, hi)
