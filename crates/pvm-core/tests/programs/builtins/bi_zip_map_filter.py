# zip, map, filter.
print(list(zip([1, 2, 3], "ab")), list(zip()), list(zip([1], [2], [3])), dict(zip("ab", [1, 2])))
try:
    list(zip([1, 2], [1], strict=True))
except ValueError as e:
    print("ValueError", e)
print(list(zip([1, 2], [3, 4], strict=True)))
print(list(map(str, [1, 2])), list(map(pow, [2, 3], [3, 2])), list(map(lambda a, b, c: a + b + c, "ab", "cd", "ef")))
print(list(filter(lambda x: x % 2, range(10))), list(filter(None, [0, 1, "", "a", None, [], [0]])))
m = map(abs, [-1, -2])
print(next(m), list(m), list(m))
unzipped = list(zip(*[(1, "a"), (2, "b"), (3, "c")]))
print(unzipped)
