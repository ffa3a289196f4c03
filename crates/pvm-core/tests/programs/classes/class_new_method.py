# __new__ for singletons / immutable subclasses.
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
class Upper(str):
    def __new__(cls, v):
        return super().__new__(cls, v.upper())
u = Upper("hello")
print(u, len(u), isinstance(u, str), u + "!", type(u).__name__)
class Pos(int):
    def __new__(cls, v):
        if v < 0:
            raise ValueError("negative")
        return super().__new__(cls, v)
print(Pos(5) + 1, type(Pos(5)).__name__)
try:
    Pos(-1)
except ValueError as e:
    print("ValueError", e)
