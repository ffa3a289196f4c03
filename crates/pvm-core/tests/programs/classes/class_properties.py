# Properties with getters, setters, deleters and validation.
class Rect:
    def __init__(self, w, h):
        self.w = w
        self.h = h
    @property
    def w(self):
        return self._w
    @w.setter
    def w(self, v):
        if v < 0:
            raise ValueError("negative width")
        self._w = v
    @property
    def area(self):
        return self.w * self.h
    @w.deleter
    def w(self):
        print("deleting w")
        del self._w
r = Rect(3, 4)
print(r.w, r.area)
r.w = 10
print(r.area)
try:
    r.w = -1
except ValueError as e:
    print("ValueError", e)
try:
    r.area = 5
except AttributeError as e:
    print("AttributeError", e)
del r.w
print(hasattr(r, "_w"))
class P:
    def get(self):
        return 42
    x = property(get, doc="the x")
print(P().x, type(P.x).__name__)
