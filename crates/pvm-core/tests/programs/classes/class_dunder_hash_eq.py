# __hash__ / __eq__ interplay; __eq__ without __hash__ makes instances unhashable.
class K:
    def __init__(self, v):
        self.v = v
    def __eq__(self, o):
        return isinstance(o, K) and self.v == o.v
try:
    {K(1)}
except TypeError as e:
    print("TypeError", e)
print(K.__hash__ is None)
class H(K):
    def __hash__(self):
        return self.v
d = {H(1): "one", H(2): "two"}
d[H(1)] = "uno"
print(len(d), d[H(1)], H(2) in d, H(3) in d)
class Default:
    pass
x = Default()
print(x == x, x != Default(), {x: 1}[x], len({x, x}))
