# Generator state: gi_running-free checks, reuse, independent instances.
def counter(start):
    while True:
        cmd = yield start
        if cmd == "reset":
            start = 0
        elif cmd == "stop":
            return start
        else:
            start += 1
a = counter(10)
b = counter(100)
print(next(a), next(b), a.send(None), a.send(None), b.send("reset"), b.send(None))
try:
    a.send("stop")
except StopIteration as e:
    print("stopped at", e.value)
print(next(a, "finished"), next(b))
