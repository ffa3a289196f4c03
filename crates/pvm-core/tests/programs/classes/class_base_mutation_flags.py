# Changes to a base class after a subclass exists must reach the subclass's
# attribute loads and stores (properties, data descriptors, __setattr__,
# __getattribute__, __getattr__), and an instance-dict '__class__' entry is
# shadowed by object's __class__ descriptor.


class Base:
    pass


class Child(Base):
    pass


c = Child()
c.x = 1
print("before property:", c.x, c.__dict__)


def _get_x(self):
    return "prop-x"


def _set_x(self, v):
    self.__dict__["_x"] = v * 10


Base.x = property(_get_x, _set_x)
print("load after property:", c.x)
c.x = 7
print("store after property:", c.__dict__)
del Base.x
print("after del property:", c.x)

# property without setter added later: store must raise
Base.ro = property(lambda self: "ro")
try:
    c.ro = 3
except AttributeError:
    print("AttributeError: read-only property")
print("ro:", c.ro)


# __setattr__ added to / removed from a base (non-slotted subclass)
class B2:
    pass


class C2(B2):
    pass


o = C2()
o.a = 1
log = []


def _setattr(self, name, value):
    log.append((name, value))
    object.__setattr__(self, name, value + 100)


B2.__setattr__ = _setattr
o.a = 2
o.b = 3
print("setattr added:", o.a, o.b, log)
del B2.__setattr__
o.a = 4
print("setattr removed:", o.a, log)


# slotted subclass
class B3:
    __slots__ = ()


class C3(B3):
    __slots__ = ("v",)


s = C3()
s.v = 1
B3.__setattr__ = _setattr
s.v = 5
print("slotted setattr added:", s.v, log[-1])
del B3.__setattr__
s.v = 6
print("slotted setattr removed:", s.v)


# __getattribute__ / __getattr__ added later
class B4:
    pass


class C4(B4):
    pass


g = C4()
g.q = "real"
print("plain:", g.q)


def _getattribute(self, name):
    if name == "q":
        return "intercepted"
    return object.__getattribute__(self, name)


B4.__getattribute__ = _getattribute
print("getattribute added:", g.q)
del B4.__getattribute__
print("getattribute removed:", g.q)


def _getattr(self, name):
    return "missing:" + name


try:
    g.nope
except AttributeError as e:
    print("AttributeError:", e)
B4.__getattr__ = _getattr
print("getattr added:", g.nope, g.q)


# data descriptor class set on a base later
class Desc:
    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        return "desc:" + str(obj.__dict__.get("_d", "-"))

    def __set__(self, obj, value):
        obj.__dict__["_d"] = value


class B5:
    pass


class C5(B5):
    pass


d = C5()
d.d = "inst"
print("before desc:", d.d)
B5.d = Desc()
print("desc load:", d.d)
d.d = 9
print("desc store:", d.d, sorted(d.__dict__.items()))


# deep hierarchy: change at the root reaches the grandchild
class R:
    pass


class M(R):
    pass


class L(M):
    pass


leaf = L()
leaf.y = "dict-y"
for _ in range(3):
    leaf.y
R.y = property(lambda self: "root-prop-y")
print("deep load:", leaf.y)
try:
    leaf.y = 1
except AttributeError:
    print("AttributeError: read-only property")


def _deep_setattr(self, name, value):
    object.__setattr__(self, name, ("via-root", value))


R.__setattr__ = _deep_setattr
leaf.z = 2
print("deep setattr:", leaf.z)


class Mid2(M):
    pass


m2 = Mid2()
m2.w = 1
print("new subclass after change:", m2.w)


# instance-dict '__class__' entry is ignored for reads
class P:
    pass


p = P()
p.__dict__["__class__"] = 5
print("__class__:", p.__class__ is P, p.__dict__["__class__"])
for _ in range(3):
    print(p.__class__.__name__)
print(type(p).__name__, getattr(p, "__class__") is P)


class Q:
    __class__ = "class-level"


q = Q()
print("Q:", q.__class__)
q.__dict__["__class__"] = "inst-level"
print("Q:", q.__class__)
