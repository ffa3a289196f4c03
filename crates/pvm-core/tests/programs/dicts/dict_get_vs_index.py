# Subclassing dict with __missing__.
class Default(dict):
    def __missing__(self, key):
        v = self[key] = len(key)
        return v
d = Default(a=1)
print(d["a"], d["hello"], d, d.get("zzz"), "zzz" in d)
class Counter(dict):
    def __missing__(self, key):
        return 0
c = Counter()
for ch in "mississippi":
    c[ch] += 1
print(c, isinstance(c, dict), type(c).__name__)
