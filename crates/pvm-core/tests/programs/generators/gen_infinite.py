# Infinite generators consumed partially.
def naturals():
    n = 0
    while True:
        yield n
        n += 1
def take(n, it):
    out = []
    for x in it:
        if len(out) >= n:
            break
        out.append(x)
    return out
print(take(5, naturals()))
def primes():
    found = []
    for n in naturals():
        if n >= 2 and all(n % p for p in found if p * p <= n):
            found.append(n)
            yield n
print(take(15, primes()))
def fib():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b
it = fib()
print([next(it) for _ in range(20)])
def cycle(seq):
    while True:
        yield from seq
c = cycle("ab")
print("".join(next(c) for _ in range(7)))
