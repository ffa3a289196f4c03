# Arithmetic dunders including reflected and in-place.
class V:
    def __init__(self, *c):
        self.c = c
    def __add__(self, o):
        if isinstance(o, V):
            return V(*(a + b for a, b in zip(self.c, o.c)))
        return NotImplemented
    def __radd__(self, o):
        if o == 0:
            return self
        return NotImplemented
    def __sub__(self, o):
        return V(*(a - b for a, b in zip(self.c, o.c)))
    def __mul__(self, k):
        return V(*(a * k for a in self.c))
    __rmul__ = __mul__
    def __truediv__(self, k):
        return V(*(a / k for a in self.c))
    def __floordiv__(self, k):
        return V(*(a // k for a in self.c))
    def __mod__(self, k):
        return V(*(a % k for a in self.c))
    def __pow__(self, k):
        return V(*(a ** k for a in self.c))
    def __neg__(self):
        return V(*(-a for a in self.c))
    def __pos__(self):
        return self
    def __abs__(self):
        return sum(a * a for a in self.c) ** 0.5
    def __iadd__(self, o):
        self.c = tuple(a + b for a, b in zip(self.c, o.c))
        return self
    def __matmul__(self, o):
        return sum(a * b for a, b in zip(self.c, o.c))
    def __repr__(self):
        return "V" + repr(self.c)
a, b = V(1, 2), V(3, 4)
print(a + b, a - b, a * 3, 3 * a, a / 2, b // 2, b % 3, a ** 2, -a, +a, abs(b), a @ b)
print(sum([a, b, V(10, 10)]))
c = a
c += b
print(c, a, c is a)
try:
    a + 1
except TypeError as e:
    print("TypeError", e)
