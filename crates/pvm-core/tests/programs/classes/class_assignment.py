# obj.__class__ = Other: the instance switches class (type, methods, isinstance), keeps its
# attributes, and the CPython TypeErrors for non-classes, built-in types and layout changes.
class Idle:
    label = "idle"

    def step(self):
        self.count += 1
        self.__class__ = Running
        return "start"


class Running:
    label = "running"

    def step(self):
        self.count += 1
        if self.count >= 3:
            self.__class__ = Idle
            return "stop"
        return "tick"


m = Idle()
m.count = 0
trace = []
for _ in range(5):
    trace.append((type(m).__name__, m.label, m.step()))
print(trace, m.count, isinstance(m, Idle), isinstance(m, Running))


class Base:
    def who(self):
        return "Base"


class Derived(Base):
    def who(self):
        return "Derived/" + super().who()


class Other:
    def who(self):
        return "Other"

    def __repr__(self):
        return "<Other>"


o = Base()
o.x = 1
o.__class__ = Derived
print(o.who(), type(o) is Derived, isinstance(o, Base), o.x, o.__dict__)
o.__class__ = Other
print(o.who(), repr(o), isinstance(o, Base), o.__class__.__name__, vars(o))
setattr(o, "__class__", Base)
print(o.who(), type(o).__name__)
object.__setattr__(o, "__class__", Derived)
print(o.who())


class S1:
    __slots__ = ("x",)


class S2:
    __slots__ = ("x",)

    def show(self):
        return f"S2 x={self.x}"


class S3:
    __slots__ = ("y",)


class L1(list):
    pass


class L2(list):
    def total(self):
        return sum(self)


class D1(dict):
    pass


class E1(Exception):
    pass


class E2(ValueError):
    pass


class E3(Exception):
    def describe(self):
        return f"E3{self.args}"


class K(Base):
    __slots__ = ("z",)


class Meta(type):
    pass


class WithMeta(metaclass=Meta):
    pass


s = S1()
s.x = 5
s.__class__ = S2
print(s.show())
lst = L1([1, 2, 3])
lst.__class__ = L2
print(lst.total(), lst, type(lst).__name__)
e = E1("boom")
e.__class__ = E3
print(e.describe(), isinstance(e, E1), str(e))


class Logged:
    def __setattr__(self, name, value):
        print("setattr", name, value.__name__ if isinstance(value, type) else value)
        super().__setattr__(name, value)


class Plain:
    pass


g = Logged()
g.__class__ = Plain
print(type(g).__name__)


def attempt(obj, cls):
    try:
        obj.__class__ = cls
        return "ok " + type(obj).__name__
    except TypeError as e:
        return f"TypeError: {e}"


for obj, cls in [
    (Base(), 5),
    (Base(), None),
    (Base(), int),
    (Base(), object),
    (Base(), type),
    (object(), Base),
    (5, Base),
    ([], L1),
    (ValueError(), E1),
    (Base(), S1),
    (S1(), S3),
    (S1(), Base),
    (L1(), Base),
    (L1(), D1),
    (E1(), E2),
    (E1(), Base),
    (Base(), K),
    (K(), Base),
    (Base(), WithMeta),
]:
    print(attempt(obj, cls))

b = Base()
try:
    del b.__class__
except TypeError as e:
    print("TypeError:", e)
print(type(b).__name__)
