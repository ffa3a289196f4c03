# TypeError messages for bad calls.
def f(a, b=2):
    return a + b
def g(*, k):
    return k
tests = [lambda: f(), lambda: f(1, 2, 3), lambda: f(1, c=3), lambda: f(1, a=2), lambda: g(1), lambda: g(), lambda: len(1), lambda: len(), lambda: "x"(), lambda: abs(1, 2)]
for t in tests:
    try:
        t()
    except TypeError as e:
        print("TypeError", e)
