# Decorators: plain, with arguments, stacked, class-based.
def trace(fn):
    def wrapper(*a, **k):
        print("call", fn.__name__, a, k)
        r = fn(*a, **k)
        print("ret", r)
        return r
    wrapper.__name__ = fn.__name__
    return wrapper
@trace
def add(x, y=1):
    return x + y
add(2); add(2, y=5)
def repeat(n):
    def deco(fn):
        def w(*a):
            return [fn(*a) for _ in range(n)]
        return w
    return deco
@repeat(3)
def hello(name):
    return "hi " + name
print(hello("x"))
def bold(fn):
    return lambda: "<b>" + fn() + "</b>"
def italic(fn):
    return lambda: "<i>" + fn() + "</i>"
@bold
@italic
def text():
    return "t"
print(text())
class CountCalls:
    def __init__(self, fn):
        self.fn = fn
        self.calls = 0
    def __call__(self, *a):
        self.calls += 1
        return self.fn(*a)
@CountCalls
def sq(x):
    return x * x
print(sq(3), sq(4), sq.calls)
registry = {}
def register(name):
    def deco(fn):
        registry[name] = fn
        return fn
    return deco
@register("double")
def double(x):
    return 2 * x
print(registry["double"](21), double(1))
