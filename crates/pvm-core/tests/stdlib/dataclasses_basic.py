from dataclasses import dataclass, field, fields, asdict, astuple, replace, is_dataclass, FrozenInstanceError

@dataclass
class Point:
    x: int
    y: int = 0
    tags: list = field(default_factory=list)

p = Point(1)
print(p, p == Point(1, 0, []), p != Point(2))
print([f.name for f in fields(p)], asdict(p), astuple(p), replace(p, y=5))
p.tags.append("t")
print(Point(1).tags, p.tags, is_dataclass(p), is_dataclass(3))

@dataclass(frozen=True, order=True)
class Ver:
    major: int
    minor: int = 0

v = Ver(1, 2)
print(v, v < Ver(1, 3), sorted([Ver(2), Ver(1, 5), Ver(1)]), hash(v) == hash(Ver(1, 2)))
try:
    v.major = 3
except FrozenInstanceError as e:
    print("FrozenInstanceError:", e)

@dataclass
class Inv:
    name: str
    price: float
    qty: int = 1
    def total(self):
        return self.price * self.qty

@dataclass
class Sub(Inv):
    note: str = ""

s = Sub("a", 2.5, 4, "x")
print(s, s.total())
try:
    Point()
except TypeError as e:
    print("TypeError:", e)

@dataclass(kw_only=True)
class K:
    a: int
    b: int = 2

print(K(a=1))

@dataclass
class Post:
    a: int
    b: int = field(init=False)
    def __post_init__(self):
        self.b = self.a * 10

print(Post(3))

@dataclass(eq=False, repr=False)
class Plain:
    z: int

print(Plain(1) == Plain(1), Plain(1).z)
try:
    @dataclass
    class Bad:
        a: int = 1
        b: int
except TypeError as e:
    print("TypeError:", e)
try:
    @dataclass
    class Mut:
        a: list = []
except ValueError as e:
    print("ValueError:", e)
print(asdict(Sub("n", 1.0)), Point.__match_args__)
