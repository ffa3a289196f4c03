import math
# Geometry with floats (rounded where transcendentals are involved).
class Vec:
    def __init__(self, x, y):
        self.x, self.y = x, y
    def __add__(self, o):
        return Vec(self.x + o.x, self.y + o.y)
    def __sub__(self, o):
        return Vec(self.x - o.x, self.y - o.y)
    def __mul__(self, k):
        return Vec(self.x * k, self.y * k)
    def dot(self, o):
        return self.x * o.x + self.y * o.y
    def cross(self, o):
        return self.x * o.y - self.y * o.x
    def norm(self):
        return math.sqrt(self.dot(self))
    def __repr__(self):
        return f"Vec({self.x!r}, {self.y!r})"
a, b = Vec(3.0, 4.0), Vec(-1.5, 2.0)
print(a + b, a - b, a * 0.5, a.dot(b), a.cross(b), a.norm(), b.norm())
pts = [Vec(0, 0), Vec(4, 0), Vec(4, 3), Vec(0, 3)]
area = 0.0
for i in range(len(pts)):
    area += pts[i].cross(pts[(i + 1) % len(pts)])
print("area", abs(area) / 2)
for deg in (0, 30, 45, 90, 180):
    r = math.radians(deg)
    print(deg, f"{math.cos(r):.9f}", f"{math.sin(r):.9f}")
print("circle", f"{math.pi * 2.5 ** 2:.6f}", f"{2 * math.pi * 2.5:.6f}")
