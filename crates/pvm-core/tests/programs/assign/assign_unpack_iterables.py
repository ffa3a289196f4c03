# Unpacking from any iterable: generators, dicts, sets (single), strings, ranges.
a, b, c = (x * x for x in range(3))
print(a, b, c)
k1, k2 = {"first": 1, "second": 2}
print(k1, k2)
(only,) = {"solo"}
print(only)
x, y = "xy"
print(x, y)
p, *q = range(4)
print(p, q)
(a, b), (c, d) = list({"k": 1}.items())[0], "cd"
print(a, b, c, d)
first, second, *others = map(str, range(5))
print(first, second, others)
