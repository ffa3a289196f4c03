# expect: OutOfCycles
# A dropped generator whose finally loops forever: finalization is metered like any code,
# and an exhausted budget is not swallowed the way exceptions escaping a finalizer are.
def stubborn():
    try:
        yield 1
    finally:
        while True:
            pass
g = stubborn()
next(g)
del g
print("unreachable")
