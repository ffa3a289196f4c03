# __defaults__, __kwdefaults__, __code__-free introspection that is allowed.
def f(a, b=2, *, c=3, d):
    return a
print(f.__defaults__, f.__kwdefaults__, f.__name__)
g = f
g.__defaults__ = (20,)
print(f(1, d=4), f.__defaults__)
