# f.__annotations__: evaluated at def time, CPython 3.11 order, one dict per function.
order = []


def note(tag, value):
    order.append(tag)
    return value


def f(a: note("a", int), /, b: note("b", str) = note("b-default", "x"), *args: note("args", tuple),
      c: note("c", "float") = 1.5, d, **kw: note("kw", dict)) -> note("ret", list):
    return [a, b, args, c, d, kw]


print(order)
print(f.__annotations__)
print(list(f.__annotations__), f.__annotations__ is f.__annotations__)
print(f(1, d=2))


def plain(x, y=1):
    pass


print(plain.__annotations__, plain.__annotations__ is plain.__annotations__, (lambda: 0).__annotations__)
plain.__annotations__["x"] = int
print(plain.__annotations__)
plain.__annotations__ = {"y": bool}
print(plain.__annotations__)
plain.__annotations__ = None
print(plain.__annotations__)
del plain.__annotations__
print(plain.__annotations__)
try:
    plain.__annotations__ = [1]
except TypeError as e:
    print("TypeError", e)


def ret_only() -> None:
    pass


def expr_ann(x: 1 + 2, y: [i * i for i in range(3)], z: (lambda q: q)(7)) -> {"k": (1, 2)}:
    pass


print(ret_only.__annotations__, expr_ann.__annotations__)


# annotations see the enclosing scope at def time, not later rebindings
T = int


def uses_global(v: T) -> T:
    return v


T = str
print(uses_global.__annotations__)


def outer(kind):
    def inner(v: kind, w: "later") -> kind:
        return v

    return inner


print(outer(bytes).__annotations__, outer(float).__annotations__)


# methods, bound methods, decorators, nested classes
class Point:
    x: int
    y: "int" = 0

    def move(self, dx: int, dy: int = 0) -> "Point":
        return self

    @staticmethod
    def origin() -> "Point":
        return Point()

    @classmethod
    def make(cls, v: float) -> "Point":
        return cls()


print(Point.__annotations__, Point.move.__annotations__, Point().move.__annotations__)
print(Point.origin.__annotations__, Point.make.__annotations__)


def deco(fn):
    fn.__annotations__["decorated"] = True
    return fn


@deco
def g(a: int) -> int:
    return a


print(g.__annotations__)

# errors while evaluating an annotation happen at def time
try:

    def broken(a: undefined_name):
        pass

except NameError as e:
    print("NameError", e)
try:
    broken
except NameError as e:
    print("NameError", e)

# module annotations
count: int = 3
label: str
print(__annotations__)
print(sorted(k for k in f.__annotations__ if k != "return"))


def kwonly(*, a: int, b: str = "s"):
    pass


def star_only(*args: int, **kwargs: str) -> bool:
    pass


print(kwonly.__annotations__, star_only.__annotations__)
