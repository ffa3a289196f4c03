# Iterator classes vs generator-based __iter__.
class Countdown:
    def __init__(self, n):
        self.n = n
    def __iter__(self):
        return self
    def __next__(self):
        if self.n <= 0:
            raise StopIteration
        self.n -= 1
        return self.n + 1
print(list(Countdown(4)))
class Tree:
    def __init__(self, v, kids=()):
        self.v, self.kids = v, list(kids)
    def __iter__(self):
        yield self.v
        for k in self.kids:
            yield from k
t = Tree(1, [Tree(2, [Tree(4)]), Tree(3)])
print(list(t), sum(t), 4 in t, 9 in t)
class Span:
    def __init__(self, a, b):
        self.a, self.b = a, b
    def __iter__(self):
        return iter(range(self.a, self.b))
s = Span(3, 6)
print(list(s), list(s), [x * 2 for x in s])
