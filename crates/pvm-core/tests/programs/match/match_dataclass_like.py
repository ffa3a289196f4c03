# Matching on class hierarchies and attributes (keyword patterns only, no __match_args__).
class Shape: pass
class Rect(Shape):
    def __init__(self, w, h):
        self.w, self.h = w, h
class Sq(Rect):
    def __init__(self, s):
        super().__init__(s, s)
class Circ(Shape):
    def __init__(self, r):
        self.r = r
def area(s):
    match s:
        case Sq(w=w):
            return ("square", w * w)
        case Rect(w=w, h=h):
            return ("rect", w * h)
        case Circ(r=r) if r <= 0:
            return ("degenerate", 0)
        case Circ(r=r):
            return ("circle", round(3.14159 * r * r, 3))
        case Shape():
            return ("shape", None)
for s in [Sq(3), Rect(2, 5), Circ(1), Circ(0), Shape(), "x"]:
    print(area(s) if isinstance(s, Shape) else "not a shape")
try:
    match Rect(1, 2):
        case Rect(1, 2):
            print("matched positionally")
except TypeError as e:
    print("TypeError", e)
