# yield from delegation, return values, nested delegation.
def inner():
    x = yield 1
    print("inner got", x)
    yield 2
    return "inner-done"
def outer():
    r = yield from inner()
    print("outer got return", r)
    yield 3
g = outer()
print(next(g), g.send("hello"), next(g))
print(next(g, "end"))
def flatten(seq):
    for x in seq:
        if isinstance(x, list):
            yield from flatten(x)
        else:
            yield x
print(list(flatten([1, [2, [3, [4]], 5], [[6]]])))
def chain(*its):
    for it in its:
        yield from it
print(list(chain("ab", range(2), [None])))
def gen_range_ret():
    yield from range(3)
    return 99
def wrap():
    v = yield from gen_range_ret()
    yield v
print(list(wrap()))
