# Comprehensions referencing enclosing function variables and nested comprehensions.
def table(n):
    return [[f"{i}x{j}={i * j}" for j in range(1, n + 1)] for i in range(1, n + 1)]
for row in table(3):
    print(row)
def pairs(limit):
    return [(a, b, c) for a in range(1, limit) for b in range(a, limit) for c in range(b, limit) if a * a + b * b == c * c]
print(pairs(21))
def filt(pred):
    return [x for x in range(20) if pred(x)]
print(filt(lambda v: v % 7 == 3))
def adders():
    return [(lambda x, k=k: x + k) for k in range(3)]
print([f(10) for f in adders()])
