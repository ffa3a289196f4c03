# expect: RecursionError
# A generator that delegates to a fresh copy of itself forever.
def g():
    yield from g()
print(next(g()))
