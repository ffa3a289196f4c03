# Descriptors implementing __get__/__set__/__set_name__.
class Typed:
    def __init__(self, kind):
        self.kind = kind
    def __set_name__(self, owner, name):
        self.name = "_" + name
    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return getattr(obj, self.name)
    def __set__(self, obj, value):
        if not isinstance(value, self.kind):
            raise TypeError(f"{self.name[1:]} must be {self.kind.__name__}")
        setattr(obj, self.name, value)
class Person:
    name = Typed(str)
    age = Typed(int)
    def __init__(self, name, age):
        self.name = name
        self.age = age
p = Person("ann", 30)
print(p.name, p.age, type(Person.name).__name__)
try:
    p.age = "old"
except TypeError as e:
    print("TypeError", e)
class NonData:
    def __get__(self, obj, objtype=None):
        return "from descriptor"
class H:
    attr = NonData()
h = H()
print(h.attr)
h.__dict__["attr"] = "instance wins"
print(h.attr)
class Lazy:
    def __init__(self, fn):
        self.fn = fn
    def __get__(self, obj, t=None):
        v = self.fn(obj)
        setattr(obj, self.fn.__name__, v)
        return v
class Data:
    calls = 0
    @Lazy
    def heavy(self):
        Data.calls += 1
        return sum(range(100))
d = Data()
print(d.heavy, d.heavy, Data.calls)
