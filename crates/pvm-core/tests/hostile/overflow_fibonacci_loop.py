# expect: OverflowError
# Fibonacci numbers grow past the cap after roughly 5900 iterations.
a, b = 0, 1
n = 0
while True:
    a, b = b, a + b
    n += 1
