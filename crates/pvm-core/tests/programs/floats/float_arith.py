# Float arithmetic, floor division, modulo with signs.
pairs = [(7.5, 2.0), (-7.5, 2.0), (7.5, -2.0), (-7.5, -2.0), (0.3, 0.1), (1e10, 3.0), (5.0, 0.5)]
for a, b in pairs:
    print(a, b, a + b, a - b, a * b, a / b, a // b, a % b, divmod(a, b))
print(-0.0 + 0.0, -0.0 * 1, 0.0 * -1, -0.0 - 0.0)
print(2.0 ** 10, 2.0 ** -2, 4.0 ** 0.5, (-8.0) ** 3, 2 ** 0.5, 10 ** -1.0)
print(1.1 * 1.1, 0.1 + 0.7, 3 * 0.1, 0.1 * 3 == 0.3, 1 - 0.9)
print(1e16 + 1, 1e16 + 2, 2**53 + 1.0)
print(sum([0.1] * 10), 0.1 * 10)
x = 1.0
for _ in range(60):
    x /= 2
print(x, x * 2**60)
print(abs(-2.5), -(-2.5), +2.5)
