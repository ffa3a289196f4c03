# Container protocol: len, getitem, setitem, delitem, contains, iter, reversed.
class Bag:
    def __init__(self):
        self.data = {}
    def __len__(self):
        return sum(self.data.values())
    def __getitem__(self, k):
        return self.data.get(k, 0)
    def __setitem__(self, k, v):
        if v:
            self.data[k] = v
        else:
            self.data.pop(k, None)
    def __delitem__(self, k):
        del self.data[k]
    def __contains__(self, k):
        return k in self.data
    def __iter__(self):
        for k, n in self.data.items():
            for _ in range(n):
                yield k
    def __reversed__(self):
        return reversed(list(self))
    def __bool__(self):
        return bool(self.data)
b = Bag()
b["a"] = 2
b["b"] = 1
print(len(b), b["a"], b["zz"], "a" in b, "zz" in b, list(b), list(reversed(b)), bool(b))
b["a"] = 0
del b["b"]
print(len(b), bool(b), list(b))
try:
    del b["nope"]
except KeyError as e:
    print("KeyError", e)
class Seq:
    def __getitem__(self, i):
        if i >= 4:
            raise IndexError(i)
        return i * 10
print(list(Seq()), 20 in Seq(), 25 in Seq())
class Grid:
    def __init__(self):
        self.cells = {}
    def __getitem__(self, pos):
        r, c = pos
        return self.cells.get(pos, ".")
    def __setitem__(self, pos, v):
        self.cells[pos] = v
g = Grid()
g[0, 1] = "X"
g[1, 1] = "O"
print("\n".join("".join(g[r, c] for c in range(3)) for r in range(2)))
