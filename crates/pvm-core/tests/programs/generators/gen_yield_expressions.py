# yield as an expression in various positions.
def g():
    x = yield
    print("x =", x)
    y = (yield x * 2) + 1
    print("y =", y)
    lst = [(yield), (yield)]
    print("lst =", lst)
    yield "end"
it = g()
next(it)
print(it.send(5))
print(it.send(10))
print(it.send("a"))
print(it.send("b"))
def multi_yield():
    yield 1, 2
    yield (3, 4)
    yield
print(list(multi_yield()))
