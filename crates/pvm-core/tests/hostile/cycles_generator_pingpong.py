# expect: OutOfCycles
# Two generators feeding each other forever via send().
def echo():
    v = yield
    while True:
        v = yield v + 1
a = echo()
b = echo()
next(a)
next(b)
v = 0
while True:
    v = b.send(a.send(v) % 1000)
