# __new__ on plain classes: singletons, instance caching, returning another class.
class Single:
    _inst = None
    def __new__(cls):
        if cls._inst is None:
            cls._inst = super().__new__(cls)
            cls._inst.created = 0
        cls._inst.created += 1
        return cls._inst
s1, s2 = Single(), Single()
print(s1 is s2, s1.created)
class Cached:
    _cache = {}
    def __new__(cls, key):
        if key not in cls._cache:
            inst = super().__new__(cls)
            inst.key = key
            inst.inits = 0
            cls._cache[key] = inst
        return cls._cache[key]
    def __init__(self, key):
        self.inits += 1
a, b, c = Cached("x"), Cached("y"), Cached("x")
print(a is c, a is b, a.inits, b.inits, sorted(Cached._cache))
class Other:
    pass
class Factory:
    def __new__(cls, kind):
        return Other() if kind == "other" else super().__new__(cls)
    def __init__(self, kind):
        self.kind = kind
f1, f2 = Factory("self"), Factory("other")
print(type(f1).__name__, f1.kind, type(f2).__name__, hasattr(f2, "kind"))
