# close(), throw(), and finally blocks in generators.
def managed():
    try:
        yield 1
        yield 2
    finally:
        print("cleanup")
g = managed()
print(next(g))
g.close()
print("closed")
g.close()
def catcher():
    while True:
        try:
            yield "ready"
        except ValueError as e:
            print("caught", e)
            yield "recovered"
c = catcher()
print(next(c))
print(c.throw(ValueError("boom")))
print(next(c))
try:
    c.throw(KeyError("k"))
except KeyError as e:
    print("propagated KeyError", e)
print(next(c, "dead"))
def ignore_exit():
    try:
        yield 1
    except GeneratorExit:
        yield 2
x = ignore_exit()
next(x)
try:
    x.close()
except RuntimeError as e:
    print("RuntimeError", e)
def unstarted():
    print("never runs")
    yield
u = unstarted()
u.close()
print("unstarted closed")
