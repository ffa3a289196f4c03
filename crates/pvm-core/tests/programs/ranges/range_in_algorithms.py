# range-driven algorithms: sieve, triangle printing, stepping windows.
N = 120
sieve = [True] * (N + 1)
sieve[0] = sieve[1] = False
for i in range(2, int(N ** 0.5) + 1):
    if sieve[i]:
        for j in range(i * i, N + 1, i):
            sieve[j] = False
print([i for i in range(N + 1) if sieve[i]])
for i in range(1, 6):
    print(" " * (5 - i) + "*" * (2 * i - 1))
data = list(range(0, 30, 2))
print([data[i:i + 4] for i in range(0, len(data), 4)])
print([sum(data[i:i + 3]) for i in range(len(data) - 2)][:6])
