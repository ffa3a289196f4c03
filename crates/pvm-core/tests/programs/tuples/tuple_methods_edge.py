# index with start/stop, count of mixed types, tuple() on generators and dict views.
t = (1, 2, 3, 1, 2, 3, 1)
print(t.index(1), t.index(1, 1), t.index(1, 4), t.index(3, 0, 3), t.count(1), t.count(1.0), t.count(True))
try:
    t.index(2, 5)
except ValueError as e:
    print("ValueError", e)
d = {"a": 1, "b": 2}
print(tuple(d), tuple(d.values()), tuple(d.items()), tuple(x * 2 for x in range(3)))
print(tuple(reversed(t)), t[::-2], tuple(sorted(set(t))))
print((1, 2) * 3 == (1, 2, 1, 2, 1, 2), () * 5, (0,) * 3)
