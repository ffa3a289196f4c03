# send() into generators: running averages and coroutines.
def averager():
    total = count = 0
    avg = None
    while True:
        v = yield avg
        total += v
        count += 1
        avg = total / count
a = averager()
print(next(a))
for v in [10, 20, 30, 5]:
    print(a.send(v))
def echo():
    received = []
    while True:
        try:
            x = yield len(received)
        except GeneratorExit:
            print("closing with", received)
            raise
        received.append(x)
e = echo()
print(e.send(None), e.send("a"), e.send("b"))
e.close()
g = averager()
try:
    g.send(5)
except TypeError as err:
    print("TypeError", err)
