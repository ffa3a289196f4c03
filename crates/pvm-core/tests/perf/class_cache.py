# Class attribute lookups through the interpreter's caches (per-instruction inline caches and
# the VM-wide class cache): polymorphic call sites, and every way a cached lookup can go stale.


class Base:
    kind = "base"

    def __init__(self, v):
        self.v = v

    def get(self):
        return self.v

    def twice(self):
        return self.get() * 2


class A(Base):
    def get(self):
        return self.v + 1


class B(Base):
    pass


class C(B):
    kind = "c"


objs = [A(1), B(2), C(3), A(4), B(5), C(6)]


def total():
    t = 0
    for o in objs:
        t += o.get() + o.twice()
    return t


def kinds():
    return "".join(o.kind[0] for o in objs)


print(total(), kinds())

# a method replaced on the class, then on a base class, then shadowed on one instance
A.get = lambda self: self.v * 10
print(total(), kinds())
Base.get = lambda self: -self.v
print(total(), kinds())
objs[1].get = lambda: 1000
print(total(), kinds())
del objs[1].get
del A.get
print(total(), kinds())

# class attribute reassigned / added on a subclass / removed again
B.kind = "bee"
print(kinds())
C.kind = "sea"
del B.kind
print(kinds())


# __init__ / __new__ changed after instances were created through the cached path
class P:
    def __init__(self, x):
        self.x = x


def make(n):
    return [P(i).x for i in range(n)]


print(make(3))
P.__init__ = lambda self, x: setattr(self, "x", x * 100)
print(make(3))


def new(cls, x):
    o = object.__new__(cls)
    o.x = -1
    return o


P.__new__ = new
print(make(3))


# __slots__ classes: stores, a property added later to the base, a __setattr__ added later
class S:
    __slots__ = ("a", "b")

    def __init__(self, a, b):
        self.a = a
        self.b = b

    def s(self):
        return self.a + self.b


class T(S):
    __slots__ = ("c",)

    def __init__(self, a, b, c):
        super().__init__(a, b)
        self.c = c

    def s(self):
        return S.s(self) * self.c


def slot_sum(n):
    t = 0
    for i in range(n):
        o = S(i, 1) if i % 2 else T(i, 2, 3)
        t += o.s()
    return t


print(slot_sum(10))
try:
    S(1, 2).z = 3
except AttributeError as e:
    print("AttributeError", e)
log = []


def logged(self, name, value):
    log.append(name)
    object.__setattr__(self, name, value)


S.__setattr__ = logged
print(slot_sum(4), log)
del S.__setattr__
S.b = property(lambda self: 7, lambda self, v: log.append("b=" + str(v)))
try:
    print(slot_sum(4), log)
except AttributeError as e:
    print("AttributeError", e)


# properties and descriptors on a polymorphic site, replaced while in use
class Shape:
    def __init__(self, r):
        self.r = r

    @property
    def size(self):
        return self.r


class Sq(Shape):
    @property
    def size(self):
        return self.r * self.r


class Ci(Shape):
    pass


class Desc:
    def __get__(self, obj, cls):
        return 99 if obj is not None else self

    def __set__(self, obj, v):
        raise AttributeError("read-only")


shapes = [Sq(2), Ci(3), Sq(4), Ci(5)]


def sizes():
    return [s.size for s in shapes]


print(sizes())
Ci.size = 5
print(sizes())
Ci.size = Desc()
print(sizes())
Shape.size = property(lambda self: -self.r)
del Ci.size
print(sizes())
try:
    shapes[1].size = 1
except AttributeError:
    print("AttributeError")


# dunder methods on a polymorphic binary operator site, replaced while in use
class N:
    def __init__(self, v):
        self.v = v

    def __add__(self, o):
        return N(self.v + (o.v if isinstance(o, N) else o))


class M(N):
    def __add__(self, o):
        return M(self.v * 2)


def adds():
    out = []
    for x in [N(1), M(2), N(3), M(4)]:
        out.append((x + x + 1).v)
    return out


print(adds())
N.__add__ = lambda self, o: N(0)
print(adds())
del M.__add__
print(adds())
