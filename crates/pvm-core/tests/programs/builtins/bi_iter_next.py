# iter/next with default, iter on sequences, sentinel form.
it = iter([1, 2])
print(next(it), next(it), next(it, None), next(it, "x"))
s = iter("ab")
print(list(s), list(s))
d = iter({"k": 1, "j": 2})
print(next(d), next(d))
values = [3, 2, 1, 0, 5]
pos = [0]
def read():
    v = values[pos[0]]
    pos[0] += 1
    return v
print(list(iter(read, 0)))
try:
    next(iter([]))
except StopIteration as e:
    print("StopIteration", repr(e))
try:
    next([1])
except TypeError as e:
    print("TypeError", e)
class Count:
    def __init__(self):
        self.i = 0
    def __iter__(self):
        return self
    def __next__(self):
        self.i += 1
        if self.i > 3:
            raise StopIteration
        return self.i
c = Count()
print(iter(c) is c, list(c), next(c, "done"))
