# Walrus in comprehensions binds in the enclosing scope.
values = [4, 9, 16, 25]
roots = [r for v in values if (r := int(v ** 0.5)) % 2 == 0]
print(roots, r)
total = 0
running = [total := total + v for v in values]
print(running, total)
def f():
    return [j := i * 10 for i in range(3)], j
print(f())
