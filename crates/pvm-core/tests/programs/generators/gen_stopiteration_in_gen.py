# PEP 479: StopIteration raised inside a generator becomes RuntimeError.
def bad():
    yield 1
    raise StopIteration("oops")
g = bad()
print(next(g))
try:
    next(g)
except RuntimeError as e:
    print("RuntimeError", e, type(e.__cause__).__name__)
def uses_next():
    it = iter([1, 2])
    while True:
        yield next(it)
try:
    print(list(uses_next()))
except RuntimeError as e:
    print("RuntimeError", e)
