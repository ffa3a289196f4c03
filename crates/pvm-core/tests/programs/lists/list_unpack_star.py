# Star-unpacking into lists and list displays.
first, *rest = [1, 2, 3, 4]
print(first, rest)
*init, last = "abcd"
print(init, last)
a, *mid, z = range(6)
print(a, mid, z)
x, *y = [1]
print(x, y)
print([*"ab", *[1, 2], *range(2)], [*[]])
def f(*args):
    return list(args)
print(f(*[1, 2], *(3,), 4))
