# Keyword-only and positional-only parameters.
def f(a, b, /, c, *, d, e=5):
    return (a, b, c, d, e)
print(f(1, 2, 3, d=4), f(1, 2, c=3, d=4, e=6))
for call in [lambda: f(1, b=2, c=3, d=4), lambda: f(1, 2, 3, 4), lambda: f(1, 2, 3), lambda: f(1, 2, 3, d=4, z=1)]:
    try:
        call()
    except TypeError as e:
        print("TypeError", e)
def g(*, key):
    return key
print(g(key="k"))
def h(x, /, **kw):
    return x, kw
print(h(1, x=2))
