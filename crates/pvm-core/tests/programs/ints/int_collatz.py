# Loops over ints: collatz lengths, digit sums, primality.
def collatz(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps
print([collatz(n) for n in range(1, 30)])
best = max(range(1, 300), key=collatz)
print(best, collatz(best))
def digsum(n):
    return sum(int(c) for c in str(n))
print(digsum(2**1000), digsum(3**500), digsum(math_f := 12345))
print(math_f)
def is_prime(n):
    if n < 2:
        return False
    i = 2
    while i * i <= n:
        if n % i == 0:
            return False
        i += 1
    return True
print([p for p in range(100) if is_prime(p)])
print(sum(1 for p in range(2000) if is_prime(p)))
