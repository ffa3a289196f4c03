# Closures capture variables, not values.
def make_counter():
    count = 0
    def inc():
        nonlocal count
        count += 1
        return count
    return inc
c1, c2 = make_counter(), make_counter()
print(c1(), c1(), c1(), c2())
def make_multipliers():
    return [lambda x, i=i: x * i for i in range(4)]
print([m(10) for m in make_multipliers()])
def late_binding():
    fs = []
    for i in range(3):
        fs.append(lambda: i)
    return [f() for f in fs]
print(late_binding())
def compose(*fs):
    def run(x):
        for f in reversed(fs):
            x = f(x)
        return x
    return run
inc = lambda x: x + 1
dbl = lambda x: x * 2
print(compose(inc, dbl)(5), compose(dbl, inc)(5), compose()(7))
def accumulator(start):
    total = [start]
    def add(v):
        total[0] += v
        return total[0]
    return add
acc = accumulator(100)
print(acc(10), acc(-5))
print(c1(), c2(), c1.__name__, c2.__qualname__)
