# Classes implementing iteration used by builtins.
class Fib:
    def __init__(self, n):
        self.n = n
    def __iter__(self):
        a, b = 0, 1
        for _ in range(self.n):
            yield a
            a, b = b, a + b
    def __len__(self):
        return self.n
f = Fib(10)
print(list(f), len(f), sum(f), max(f), sorted(f, reverse=True)[:3], 21 in f, list(zip(f, "abc")))
print(dict(enumerate(Fib(3))), set(Fib(5)) == {0, 1, 2, 3}, tuple(Fib(4)), [*Fib(3)])
a, b, c = Fib(3)
print(a, b, c)
