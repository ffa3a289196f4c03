# Lexicographic comparison of tuples and sorting by tuples.
pairs = [(2, "b"), (1, "z"), (2, "a"), (1, "a"), (3,), (2,), ()]
print(sorted(pairs))
print((1, 2) < (1, 2, 0), (1, 3) > (1, 2, 9), (0,) < (0, 0), () < (0,), (1, 2) == (1, 2), (1, 2) != (2, 1))
print(max(pairs), min(pairs), (1, "a") <= (1, "a"))
try:
    (1, "a") < (1, 2)
except TypeError as e:
    print("TypeError", e)
print(sorted([(1, -1), (1, 1), (0, 5)], key=lambda t: (t[1], t[0])))
