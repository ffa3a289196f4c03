# Push-style coroutine pipelines using send().
def printer(prefix):
    while True:
        item = yield
        print(prefix, item)
def filt(pred, target):
    while True:
        item = yield
        if pred(item):
            target.send(item)
def mapper(fn, target):
    while True:
        item = yield
        target.send(fn(item))
def prime(c):
    next(c)
    return c
sink = prime(printer("out:"))
pipe = prime(filt(lambda x: x % 3 == 0, prime(mapper(lambda x: x * x, sink))))
for i in range(12):
    pipe.send(i)
def accumulate():
    total = 0
    while True:
        v = yield total
        if v is None:
            return total
        total += v
acc = accumulate()
next(acc)
for v in [5, 10, 20]:
    print("running", acc.send(v))
try:
    acc.send(None)
except StopIteration as e:
    print("final", e.value)
