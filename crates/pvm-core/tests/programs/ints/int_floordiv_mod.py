# Floor division and modulo follow the sign of the divisor.
pairs = [(7, 2), (-7, 2), (7, -2), (-7, -2), (0, 3), (6, 3), (-6, 3), (1, 7), (-1, 7), (1, -7)]
for a, b in pairs:
    q, r = a // b, a % b
    print(a, b, q, r, q * b + r == a, divmod(a, b))
print(divmod(10**20 + 7, 13), divmod(-(10**20) - 7, 13))
print((10**30) // -(10**15 + 3), (10**30) % -(10**15 + 3))
for b in (3, -3):
    print([x % b for x in range(-5, 6)])
    print([x // b for x in range(-5, 6)])
