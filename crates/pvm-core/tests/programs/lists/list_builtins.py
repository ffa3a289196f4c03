# Builtins operating on lists.
a = [4, -2, 7, 0, 7, 3]
print(len(a), sum(a), min(a), max(a), sorted(a), list(reversed(a)), any(a), all(a))
print(list(enumerate(a, 1))[:3], list(zip(a, "abc")), list(map(abs, a)), list(filter(None, a)))
print(a.count(7), a.index(7), [i for i, v in enumerate(a) if v == 7])
print(list(range(3)) + list("ab") + list((1, 2)) + list({"k": 1}))
print(list(map(lambda x, y: x * y, [1, 2, 3], [4, 5, 6])), list(zip()), list(zip([1], [])))
b = list(a)
print(b == a, b is a)
