# Tuple construction, indexing, slicing, methods.
t = (1, "two", 3.0, None, (5, 6))
print(t, len(t), t[1], t[-1][0], t[1:3], t[::-1], t[::2])
print((), (1,), tuple(), tuple([1, 2]), tuple("ab"), tuple(range(3)), 1, (1))
print(t.count(1), t.index("two"), (1, 2, 1, 1).count(1), (3, 4, 3).index(3, 1))
print((1, 2) + (3,), (1, 2) * 2, 2 * (0,), (1,) * 0)
print(1 in t, "x" in t, (5, 6) in t)
try:
    t[0] = 5
except TypeError as e:
    print("TypeError", e)
try:
    t.index(99)
except ValueError as e:
    print("ValueError", e)
try:
    t[10]
except IndexError as e:
    print("IndexError", e)
x = 1, 2, 3
print(x, type(x).__name__)
