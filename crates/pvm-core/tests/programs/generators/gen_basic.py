# Basic generator functions and iteration protocol.
def count_up(n):
    i = 0
    while i < n:
        yield i
        i += 1
print(list(count_up(5)), sum(count_up(101)))
g = count_up(2)
print(next(g), next(g))
try:
    next(g)
except StopIteration as e:
    print("StopIteration", e.value)
print(next(g, "exhausted"))
def gen_with_return():
    yield 1
    return "result"
g = gen_with_return()
print(next(g))
try:
    next(g)
except StopIteration as e:
    print("StopIteration value:", e.value, e.args)
def lazy():
    print("start")
    yield "a"
    print("middle")
    yield "b"
    print("end")
for v in lazy():
    print("got", v)
print(iter(g) is g)
