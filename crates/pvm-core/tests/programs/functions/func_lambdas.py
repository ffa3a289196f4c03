# Lambdas in various positions.
sq = lambda x: x * x
print(sq(5), (lambda: "no args")(), (lambda *a, **k: (a, k))(1, z=2), (lambda x, y=3: x + y)(1))
print(sorted(["bb", "a", "ccc"], key=lambda s: -len(s)), list(map(lambda p: p[0] * p[1], [(2, 3), (4, 5)])))
ops = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b}
print({k: f(7, 3) for k, f in ops.items()})
curry = lambda a: lambda b: lambda c: a + b + c
print(curry(1)(2)(3))
print((lambda n: (lambda f, n: f(f, n))(lambda f, k: 1 if k <= 1 else k * f(f, k - 1), n))(6))
print(sq.__name__, (lambda: 0).__name__)
