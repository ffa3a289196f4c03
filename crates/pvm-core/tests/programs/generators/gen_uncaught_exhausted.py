# Ends with an uncaught StopIteration (with a message) from next() outside a generator.
def two():
    yield "first"
    yield "second"
    return "no more items"
g = two()
print(next(g))
print(next(g))
print(next(g))
