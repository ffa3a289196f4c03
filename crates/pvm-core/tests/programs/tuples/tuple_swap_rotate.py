# Multiple assignment evaluation order with tuples.
a, b, c = 1, 2, 3
a, b, c = c, a, b
print(a, b, c)
x = [0, 1, 2]
i = 0
i, x[i] = 1, 9
print(i, x)
def fib_pairs(n):
    a, b = 0, 1
    out = []
    for _ in range(n):
        out.append((a, b))
        a, b = b, a + b
    return tuple(out)
print(fib_pairs(8))
