# Paths the interpreter takes without the generic machinery, made stale every way a program
# can: new attributes stored on plain and __slots__ instances, `__class__` stores, class calls
# whose `__init__` / `__new__` change, polymorphic method calls while classes are mutated,
# range() calls, list slices read and assigned.


class P:
    def __init__(self, a, b):
        self.a = a
        self.b = b


class S:
    __slots__ = ("x", "y")

    def __init__(self, x):
        self.x = x


class S2(S):
    __slots__ = ("z",)


class Other:
    def __init__(self, a, b):
        self.a = a
        self.b = b

    def kind(self):
        return "other"


def make(n):
    out = []
    for i in range(n):
        out.append(P(i, i * 2))
    return out


ps = make(5)
print([(p.a, p.b) for p in ps])
for p in ps:
    p.c = p.a + p.b          # a new attribute, stored by the same instruction each time
print([sorted(vars(p).items()) for p in ps])

s = S(1)
for v in range(3):
    s.y = v                  # slot: first store adds it, later ones overwrite
print(s.x, s.y)
try:
    s.w = 5
except AttributeError as e:
    print("AttributeError", e)
t = S2(7)
for v in (1, 2):
    t.z = v
    t.y = v * 10
print(t.x, t.y, t.z)

# __class__ stores go to the class setter, never to the instance dict
q = P(1, 2)
for cls in (Other, P):
    q.__class__ = cls
    print(type(q).__name__, q.__class__.__name__, sorted(vars(q)))
try:
    s.__class__ = P
except TypeError as e:
    print("TypeError", e)


# class calls: __init__ replaced, __new__ added, defaults, keyword arguments
def calls():
    return [P(1, 2) for _ in range(2)]


print([(o.a, o.b) for o in calls()])


def init2(self, a, b):
    self.a = -a
    self.b = -b


P.__init__ = init2
print([(o.a, o.b) for o in calls()])


def new(cls, a, b):
    print("new", cls.__name__, a, b)
    return object.__new__(cls)


P.__new__ = staticmethod(new)
print([(o.a, o.b) for o in calls()])


class Q:
    def __init__(self, a):
        self.a = a


def qcalls():
    return [Q(i).a for i in range(2)]


print(qcalls())
del Q.__init__
try:
    qcalls()
except TypeError as e:
    print("TypeError", e)
Q.__init__ = lambda self, a: None
print([sorted(vars(Q(1))) for _ in range(2)])


class D:
    def __init__(self, a, b=5):
        self.s = a + b


print([D(1).s, D(1, 1).s, D(a=2).s])


class BadInit:
    def __init__(self, a):
        return a


try:
    BadInit(3)
except TypeError as e:
    print("TypeError", e)


# polymorphic method calls while classes change
class A:
    def m(self):
        return "A.m"

    def n(self):
        return "A.n " + self.m()


class B(A):
    def m(self):
        return "B.m"


class C(A):
    pass


objs = [A(), B(), C(), B(), C()]


def sweep():
    return [o.n() for o in objs] + [o.m() for o in objs]


print(sweep())
B.m = lambda self: "B.m2"    # overwrite: same keys
print(sweep())
C.m = lambda self: "C.m"     # new key in a subclass
print(sweep())
del B.m
print(sweep())
A.m = lambda self: "A.m2"
print(sweep())
objs[0].m = lambda: "instance m"
print(sweep())

# range() calls
print([list(range(k)) for k in (0, 1, 3)], list(range(2, 5)), list(range(5, 2)))
print(list(range(True)), list(range(-2, 1)), list(range(1, 10, 3)))
try:
    range(1.5)
except TypeError as e:
    print("TypeError", e)

# list slices
xs = list(range(8))
for k in range(1, 6):
    xs[: k + 1] = xs[k::-1]
print(xs)
xs[2:4] = [9, 9, 9]
print(xs)
xs[True:None] = xs[None:2]
print(xs)
xs[5:2] = [7]
print(xs, xs[::-2], xs[-3:], xs[1:-1:2])
try:
    xs[::0]
except ValueError as e:
    print("ValueError", e)
try:
    xs[1:5:2] = [1]
except ValueError as e:
    print("ValueError", e)
ys = [[1], [2], [3]]
ys[0:2] = ys[1:3]
print(ys)

# a base class gains (and loses) __setattr__ after instances of a __slots__ subclass
# stored (and overwrote) attributes through the same instructions
class SB:
    __slots__ = ("u", "w")


class SD(SB):
    __slots__ = ("k",)


seen = []


def store_all(objs, v):
    for o in objs:
        o.u = v
        o.k = v


sds = [SD(), SD()]
store_all(sds, 1)
store_all(sds, 2)
print([(o.u, o.k) for o in sds])


def seen_setattr(self, name, value):
    seen.append(name)
    object.__setattr__(self, name, value)


SB.__setattr__ = seen_setattr
store_all(sds, 3)
print([(o.u, o.k) for o in sds], seen)
del SB.__setattr__
store_all(sds, 4)
print([(o.u, o.k) for o in sds], seen)
