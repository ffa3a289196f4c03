# bare raise, re-raising in nested handlers, exception variable scope.
def f():
    try:
        raise ValueError("orig")
    except ValueError:
        print("handling")
        raise
try:
    f()
except ValueError as e:
    print("re-raised", e)
try:
    raise KeyError("a")
except KeyError as e:
    saved = e
print(type(saved).__name__, saved)
try:
    e
except NameError as ne:
    print("NameError", ne)
def handler_raises():
    try:
        raise TypeError("first")
    except TypeError:
        try:
            raise ValueError("second")
        except ValueError as v:
            print("inner", v, type(v.__context__).__name__)
        raise
try:
    handler_raises()
except TypeError as t:
    print("outer got", t)
try:
    raise
except RuntimeError as e:
    print("RuntimeError", e)
