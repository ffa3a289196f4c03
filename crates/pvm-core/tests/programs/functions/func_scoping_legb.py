# LEGB resolution and builtins shadowing.
x = "global"
def f():
    x = "enclosing"
    def g():
        return x
    return g()
print(f())
def h():
    return x
print(h())
def shadow_len():
    len = lambda s: 42
    return len("abc")
print(shadow_len(), len("abc"))
def uses_later():
    return later_defined()
def later_defined():
    return "found at call time"
print(uses_later())
def loc():
    try:
        print(x)
        x = 1
    except UnboundLocalError as e:
        print("UnboundLocalError", e)
loc()
