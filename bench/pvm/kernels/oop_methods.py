# Class/method-call heavy kernel: a tiny 2-D physics/geometry world with vectors,
# shapes (inheritance, properties, dunder methods) and a ledger of interactions.
STEPS = 2500
N_SHAPES = 40


class Vec:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __add__(self, o):
        return Vec(self.x + o.x, self.y + o.y)

    def __sub__(self, o):
        return Vec(self.x - o.x, self.y - o.y)

    def scale(self, k):
        return Vec(self.x * k, self.y * k)

    def dot(self, o):
        return self.x * o.x + self.y * o.y

    def norm2(self):
        return self.dot(self)


class Shape:
    def __init__(self, pos, vel):
        self.pos = pos
        self.vel = vel
        self.hits = 0

    def step(self, dt):
        self.pos = self.pos + self.vel.scale(dt)
        self.bounce()

    def bounce(self):
        if self.pos.x < 0 or self.pos.x > 100:
            self.vel = Vec(-self.vel.x, self.vel.y)
            self.hits += 1
        if self.pos.y < 0 or self.pos.y > 100:
            self.vel = Vec(self.vel.x, -self.vel.y)
            self.hits += 1

    @property
    def radius(self):
        return 1.0

    def overlaps(self, other):
        r = self.radius + other.radius
        return (self.pos - other.pos).norm2() < r * r


class Circle(Shape):
    def __init__(self, pos, vel, r):
        super().__init__(pos, vel)
        self.r = r

    @property
    def radius(self):
        return self.r


class Square(Shape):
    def __init__(self, pos, vel, side):
        super().__init__(pos, vel)
        self.side = side

    @property
    def radius(self):
        return self.side * 0.5


class World:
    def __init__(self, n):
        self.shapes = []
        for i in range(n):
            pos = Vec((i * 37) % 100 + 0.5, (i * 61) % 100 + 0.25)
            vel = Vec(((i * 13) % 7) - 3.0, ((i * 29) % 5) - 2.0)
            if i % 2:
                self.shapes.append(Circle(pos, vel, 1.0 + (i % 3)))
            else:
                self.shapes.append(Square(pos, vel, 2.0 + (i % 4)))
        self.contacts = 0

    def tick(self, dt):
        for s in self.shapes:
            s.step(dt)
        shapes = self.shapes
        for i in range(0, len(shapes), 2):
            a = shapes[i]
            for j in range(i + 1, len(shapes), 3):
                if a.overlaps(shapes[j]):
                    self.contacts += 1


w = World(N_SHAPES)
for _ in range(STEPS):
    w.tick(0.1)
hits = sum(s.hits for s in w.shapes)
spread = sum(int(s.pos.x * 1000) + int(s.pos.y * 1000) for s in w.shapes)
print(f"oop_methods steps={STEPS} contacts={w.contacts} hits={hits} spread={spread}")
