# Shared mutable class attributes vs per-instance state.
class Bad:
    items = []
    def add(self, x):
        self.items.append(x)
class Good:
    def __init__(self):
        self.items = []
    def add(self, x):
        self.items.append(x)
a, b = Bad(), Bad()
a.add(1); b.add(2)
print(a.items, b.items, Bad.items)
c, d = Good(), Good()
c.add(1); d.add(2)
print(c.items, d.items)
class Counter:
    n = 0
    def __init__(self):
        self.n += 1
x = Counter()
print(x.n, Counter.n)
