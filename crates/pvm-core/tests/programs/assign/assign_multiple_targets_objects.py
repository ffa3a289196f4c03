# Augmented assignment on attributes/items calls __getitem__/__setitem__ once each.
class Box:
    def __init__(self):
        self.log = []
        self.d = {"x": 1}
    def __getitem__(self, k):
        self.log.append("get " + k)
        return self.d[k]
    def __setitem__(self, k, v):
        self.log.append(f"set {k}={v}")
        self.d[k] = v
b = Box()
b["x"] += 5
b["x"] *= 2
print(b.log, b.d)
class Num:
    def __init__(self, v):
        self.v = v
    def __iadd__(self, o):
        self.v += o
        return self
    def __add__(self, o):
        return Num(self.v + o)
n = Num(1)
m = n
n += 5
print(n is m, n.v, m.v)
n = n + 1
print(n is m, n.v, m.v)
