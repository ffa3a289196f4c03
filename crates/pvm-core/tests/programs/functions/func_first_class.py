# Functions as values: stored, passed, returned, with attributes.
def apply(f, *args):
    return f(*args)
def square(x):
    """Return x squared."""
    return x * x
print(apply(square, 4), apply(max, 3, 9, 2), apply(len, "four"))
funcs = [square, abs, str, bool]
print([f(-3) for f in funcs])
square.tag = "math"
print(square.tag, square.__doc__, square.__name__, square.__qualname__)
def outer():
    def inner():
        pass
    return inner
print(outer().__qualname__, callable(square), callable(5))
def pipeline(value, *steps):
    for s in steps:
        value = s(value)
    return value
print(pipeline("  Hello  ", str.strip, str.lower, lambda s: s + "!"))
