from enum import Enum, IntEnum, Flag, IntFlag, StrEnum, auto, unique

class Color(Enum):
    RED = 1
    GREEN = 2
    BLUE = 3
    CRIMSON = 1

print(Color.RED, repr(Color.GREEN), Color(2), Color["BLUE"], Color.CRIMSON is Color.RED)
print(list(Color), len(Color), Color.RED.name, Color.RED.value, Color.RED in Color)
print([m.name for m in Color], list(Color.__members__))
try:
    Color(7)
except ValueError as e:
    print("ValueError:", e)
try:
    Color["PINK"]
except KeyError as e:
    print("KeyError:", e)

class Prio(IntEnum):
    LOW = 1
    HIGH = 2

print(Prio.LOW < Prio.HIGH, Prio.HIGH + 1, Prio(2), sorted([Prio.HIGH, Prio.LOW]), int(Prio.HIGH))

class Perm(Flag):
    R = 4
    W = 2
    X = 1

rw = Perm.R | Perm.W
print(rw, Perm.R in rw, Perm.X in rw, bool(Perm.R & Perm.X), rw.value)

class Auto(Enum):
    A = auto()
    B = auto()

print(Auto.A.value, Auto.B.value)

class S(StrEnum):
    X = "ex"

print(S.X, S.X == "ex", S.X.upper())

class Shape(Enum):
    SQUARE = "sq"
    def describe(self):
        return f"{self.name}:{self.value}"
    @classmethod
    def default(cls):
        return cls.SQUARE

print(Shape.SQUARE.describe(), Shape.default(), hash(Shape.SQUARE) == hash(Shape.SQUARE))
try:
    @unique
    class Dup(Enum):
        A = 1
        B = 1
except ValueError as e:
    print("ValueError:", e)
print(isinstance(Color.RED, Color), type(Color.RED).__name__, Color.RED == 1, Prio.LOW == 1)
d = {Color.RED: "r"}
print(d[Color.CRIMSON])
