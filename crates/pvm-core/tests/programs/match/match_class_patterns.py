# Class patterns with positional (__match_args__) and keyword sub-patterns.
class Point:
    __match_args__ = ("x", "y")
    def __init__(self, x, y):
        self.x, self.y = x, y
class Circle:
    __match_args__ = ("center", "r")
    def __init__(self, center, r):
        self.center, self.r = center, r
def where(shape):
    match shape:
        case Point(0, 0):
            return "origin"
        case Point(0, y):
            return f"on y axis at {y}"
        case Point(x=x, y=0):
            return f"on x axis at {x}"
        case Circle(Point(0, 0), r=r) if r > 10:
            return f"big circle at origin r={r}"
        case Circle(center=Point(x, y), r=r):
            return f"circle ({x},{y}) r={r}"
        case Point():
            return "some point"
        case int(n) | float(n):
            return f"number {n}"
        case str() as s:
            return f"string {s!r}"
        case [Point(x=a), Point(x=b)]:
            return f"two points x={a},{b}"
        case _:
            return "unknown"
for s in [Point(0, 0), Point(0, 5), Point(3, 0), Point(2, 2), Circle(Point(0, 0), 20), Circle(Point(1, 1), 2), 7, 2.5, "hi", [Point(1, 9), Point(2, 8)], None]:
    print(where(s))
