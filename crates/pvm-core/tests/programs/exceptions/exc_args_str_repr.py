# args, str and repr of built-in exceptions.
excs = [ValueError(), ValueError("msg"), ValueError("a", 2), KeyError("k"), KeyError(), KeyError(1, 2), IndexError(5),
        TypeError(None), Exception([1, 2]), StopIteration(7), OSError("disk"), RuntimeError(""), AssertionError("x")]
for e in excs:
    print(type(e).__name__, e.args, repr(str(e)), repr(e))
e = ValueError("x")
e.args = ("changed", 1)
print(e, repr(e))
print(StopIteration(7).value, StopIteration().value)
