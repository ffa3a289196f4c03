# Decorators that wrap methods and preserve behaviour across classes.
def logged(fn):
    def w(self, *a):
        r = fn(self, *a)
        self.calls.append((fn.__name__, a, r))
        return r
    return w
class Calc:
    def __init__(self):
        self.calls = []
    @logged
    def add(self, a, b):
        return a + b
    @logged
    def neg(self, a):
        return -a
c = Calc()
c.add(2, 3)
c.neg(7)
c.add(c.neg(1), 10)
print(c.calls)
def validate(**types):
    def deco(fn):
        def w(**kw):
            for k, t in types.items():
                if not isinstance(kw.get(k), t):
                    raise TypeError(f"{k} must be {t.__name__}")
            return fn(**kw)
        return w
    return deco
@validate(name=str, qty=int)
def order(name, qty):
    return f"{qty} x {name}"
print(order(name="pen", qty=3))
try:
    order(name="pen", qty="3")
except TypeError as e:
    print("TypeError", e)
