# Starred assignment edge cases.
a, *b = "hello"
print(a, b)
*a, b = [1]
print(a, b)
a, *b, c, d = range(7)
print(a, b, c, d)
[a, *b] = (1, 2)
print(a, b)
for first, *rest in [(1, 2, 3), (4,), "xy"]:
    print(first, rest)
try:
    a, *b, c = "x"
except ValueError as e:
    print("ValueError", e)
nested = [(1, [2, 3, 4]), (5, [6])]
for x, (y, *z) in nested:
    print(x, y, z)
