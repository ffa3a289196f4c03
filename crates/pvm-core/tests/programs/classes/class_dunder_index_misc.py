# __index__, __int__, __float__, __round__, __neg__, __invert__, __contains__ fallback.
class N:
    def __init__(self, v):
        self.v = v
    def __index__(self):
        return self.v
    def __float__(self):
        return self.v + 0.5
    def __round__(self, nd=None):
        return f"rounded({nd})"
    def __invert__(self):
        return N(~self.v)
    def __repr__(self):
        return f"N({self.v})"
n = N(3)
print([10, 20, 30, 40][n], "abcdef"[N(1):N(4)], bin(n), hex(n), int(n), float(n), round(n), round(n, 2), ~n)
print(range(10)[n], list(range(N(2))), operator_like := (lambda a, b: a * b)(2, N(3).v))
