# `self.name` loads and `self.name = v` stores (fused with the `LOAD_FAST` before them by the
# interpreter) and class lookups at sites that see two or more classes (two-way inline caches):
# results, errors and the budget at which each line gets printed must not depend on either.


class Plain:
    tag = "cls"

    def __init__(self, a):
        self.a = a
        self.b = a * 2

    def get(self):
        return self.a + self.b

    def bump(self):
        self.a = self.a + 1
        self.c = self.a
        return self.c

    def missing(self):
        return self.nope


class Slotted:
    __slots__ = ("x", "y")

    def __init__(self, x):
        self.x = x

    def setz(self):
        self.z = 1


class Shape:
    def __init__(self, s):
        self.s = s
        self.hits = 0

    @property
    def size(self):
        return self.s * 2

    def area(self):
        self.hits += 1
        return self.s * self.size


class Circle(Shape):
    @property
    def size(self):
        return self.s * 3


class Square(Shape):
    pass


class Tri(Shape):
    def area(self):
        return -self.s


def show(label, v):
    print(label, v)


p = Plain(3)
show("get", p.get())
show("bump", p.bump())
show("bump", p.bump())
show("tag", p.tag)
try:
    p.missing()
except AttributeError as e:
    show("missing", e)

s = Slotted(4)
show("slot", s.x)
try:
    s.setz()
except AttributeError as e:
    show("slots", e)


def unbound():
    del_me = Plain(1)
    del del_me
    return del_me.a


try:
    unbound()
except UnboundLocalError as e:
    show("unbound", e)

shapes = [Circle(1), Square(2), Circle(3), Square(4)]


def areas():
    return [sh.area() for sh in shapes]


show("two", areas())
shapes.append(Tri(5))
show("three", areas())
show("hits", [sh.hits for sh in shapes])

# a property added to one of the two classes for a name the instances hold
Square.s = property(lambda self: 100)
show("prop", areas())
del Square.s
show("unprop", areas())
# a method replaced on one class of a two-class site
Circle.area = lambda self: self.s * 1000
show("repl", areas())
del Circle.area
show("back", areas())


# `__getattribute__` and `__setattr__` added to a class after its sites were cached
def gattr(self, name):
    return "ga:" + name


Square.__getattribute__ = gattr
show("ga", [sh.s for sh in shapes])
del Square.__getattribute__


def sattr(self, name, v):
    object.__setattr__(self, name, v * 10)


Circle.__setattr__ = sattr
show("sa", areas())
show("sa", [sh.hits for sh in shapes])
del Circle.__setattr__


class Other:
    def who(self):
        return "other"


class Swap:
    def __init__(self):
        self.v = 1

    def who(self):
        return "swap"

    def change(self):
        self.__class__ = Other
        return self.who()


show("class", Swap().change())


class Err(Exception):
    def note(self):
        self.extra = 5
        return self.extra + self.args[0]


show("exc", Err(2).note())


class Counter:
    def __init__(self):
        self.n = 0

    def run(self, k):
        for _ in range(k):
            self.n = self.n + 1
            print("n", self.n)
        return self.n


show("count", Counter().run(6))


def fail_late(o):
    o.a = 1
    return o.zzz


try:
    fail_late(Plain(0))
except AttributeError as e:
    show("late", e)


# `LOAD_FAST` / `LOAD_CONST` fused with an int / float operator after it, and two `LOAD_FAST`s
def arith(n):
    i = 0
    x = 0.5
    t = 0
    big = 2**61
    while i < n:
        t = t + i * 3 - 1
        x = x * 1.5 + i
        x -= 0.25
        t //= 2
        i += 1
        big = big + big
        print("arith", i, t, x, big)
    return t, x


show("ret", arith(4))


def mixed(a, b):
    c = a + b
    d = b * 2
    return c, d, a, b


show("mixed", mixed(7, 2))
show("mixed", mixed(7.5, 2))
show("mixed", mixed("ab", "cd")[0])
try:
    mixed("ab", 2)
except TypeError as e:
    show("mixed", e)


def zero(a, b):
    return a % b


try:
    zero(5, 0)
except ZeroDivisionError as e:
    show("zero", e)


def unbound2(a):
    if a > 5:
        z = 1
    return a + z


show("unb", unbound2(9))
try:
    unbound2(1)
except UnboundLocalError as e:
    show("unb", e)


# `LOAD_CONST` fused with a comparison (and the conditional jump after it)
def consts(seq):
    n = 0
    for ch in seq:
        if ch == "a":
            n += 1
        elif ch != "b" and ch is not None:
            n += 10
        if n > 12:
            print("big", n, ch == "a_long_string_of_more_than_16_bytes")
    return n


show("consts", consts(["a", "b", "c", None, "a", "a_long_string_of_more_than_16_bytes", 3]))
