# Key equality across numeric types, tuple keys, frozenset keys.
d = {}
d[1] = "one"
d[1.0] = "float one"
d[True] = "true"
print(d, len(d))
d[2.5] = "x"
d[(1, 2)] = "tuple"
d[frozenset({1})] = "fs"
d[None] = "none"
d[""] = "empty"
print(len(d), d[(1, 2)], d[frozenset([1])], d[None], d[""], d[1])
print(0 in {False: 1}, {0: "a"}[False], {-0.0: 1}.get(0.0))
class Key:
    def __init__(self, v):
        self.v = v
    def __hash__(self):
        return hash(self.v % 10)
    def __eq__(self, other):
        return isinstance(other, Key) and self.v == other.v
    def __repr__(self):
        return f"Key({self.v})"
k = {Key(1): "a", Key(11): "b", Key(1): "c"}
print(k, k[Key(11)], Key(21) in k)
