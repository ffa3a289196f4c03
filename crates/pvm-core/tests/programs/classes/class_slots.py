# __slots__ restricts attributes.
class Pt:
    __slots__ = ("x", "y")
    def __init__(self, x, y):
        self.x, self.y = x, y
p = Pt(1, 2)
p.x = 10
print(p.x, p.y, hasattr(p, "__dict__"))
try:
    p.z = 3
except AttributeError as e:
    print("AttributeError", e)
class Pt3(Pt):
    __slots__ = ("z",)
q = Pt3(1, 2)
q.z = 3
print(q.x, q.y, q.z)
try:
    print(Pt.__new__(Pt).x)
except AttributeError as e:
    print("AttributeError", e)
class Free(Pt):
    pass
f = Free(0, 0)
f.anything = 1
print(f.anything)
