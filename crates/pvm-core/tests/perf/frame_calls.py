# Calls the interpreter makes by pushing a frame instead of a nested native call:
# __init__ of a class call, binary dunder methods, property getters; also stores into
# __slots__ instances, float ** // % and `is None`. Output and cycles are pinned.
class V:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __add__(self, o):
        if isinstance(o, V):
            return V(self.x + o.x, self.y + o.y)
        return NotImplemented

    def __radd__(self, o):
        return V(self.x + o, self.y + o)

    def __mul__(self, k):
        return V(self.x * k, self.y * k)

    @property
    def n(self):
        return self.x * self.x + self.y * self.y


class W(V):
    __slots__ = ()

    def __sub__(self, o):
        return NotImplemented


class Bad:
    def __init__(self):
        return 5


class Kw:
    def __init__(self, a, b=2, *, c=3):
        self.t = (a, b, c)


class Boom:
    def __init__(self, k):
        if k:
            raise ValueError("boom %d" % k)
        self.k = k


class P:
    @property
    def p(self):
        return self.q * 2

    def __init__(self):
        self.q = 21


v = V(1, 2)
s = V(0, 0)
for i in range(20):
    s = s + v * i
    s.x = s.x - 1
print(s.x, s.y, s.n, (3 + v).y)
try:
    v + 3
except TypeError as e:
    print("TypeError", e)
try:
    W(1, 1) - W(2, 2)
except TypeError as e:
    print("TypeError", e)
try:
    Bad()
except TypeError as e:
    print("TypeError", e)
print(Kw(1).t, Kw(1, c=9).t, Kw(a=4, b=5).t)
for k in range(3):
    try:
        print(Boom(k).k)
    except ValueError as e:
        print("ValueError", e)
try:
    v.z = 1
except AttributeError as e:
    print("AttributeError", e)
print(P().p, sum(P().p for _ in range(5)))
f = 2.0
print(f ** 0.25, f ** 3, 7.5 // f, -7.5 % f, 7.5 % -2, 2 ** -1.0)
try:
    0.0 ** -1.0
except ZeroDivisionError as e:
    print("ZeroDivisionError", e)
try:
    1.0 // 0.0
except ZeroDivisionError as e:
    print("ZeroDivisionError", e)
n = None
c = 0
for x in [None, 1, "a", None, v, 0.0]:
    if x is None:
        c += 1
    if x is not None:
        c += 10
    if None is x:
        c += 100
print(c, n is None, n is not None)
