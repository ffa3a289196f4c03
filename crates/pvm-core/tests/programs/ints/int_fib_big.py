# Big fibonacci numbers (stay below 4096 bits) and fast doubling.
a, b = 0, 1
for _ in range(5000):
    a, b = b, a + b
print(a.bit_length(), str(a)[:30], str(a)[-30:])
def fib(n):
    if n == 0:
        return (0, 1)
    x, y = fib(n >> 1)
    c = x * (2 * y - x)
    d = x * x + y * y
    return (d, c + d) if n & 1 else (c, d)
print(fib(5000)[0] == a, fib(100)[0], fib(1)[0], fib(2)[0])
print(fib(4000)[0] % 1000000007)
