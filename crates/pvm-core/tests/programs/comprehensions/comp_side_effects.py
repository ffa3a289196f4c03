# Comprehensions evaluate in order, and conditions short-circuit.
log = []
def f(x):
    log.append(x)
    return x
r = [f(x) for x in range(5) if x % 2 == 0 and f(-x) <= 0]
print(r, log)
log.clear()
d = {f(k): f(v) for k, v in [("a", 1), ("b", 2)]}
print(d, log)
