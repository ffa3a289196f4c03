# Big integer division, modulo and divmod with mixed signs.
n = 2 ** 3000 + 12345
d = 3 ** 900 + 1
q, r = divmod(n, d)
print(q.bit_length(), r.bit_length(), q * d + r == n)
print(q % 10**15, r % 10**15)
q2, r2 = divmod(-n, d)
print(q2 % 10**15, r2 % 10**15, q2 * d + r2 == -n, r2 >= 0)
q3, r3 = divmod(n, -d)
print(r3 <= 0, q3 * (-d) + r3 == n)
print(n // 2**2990, n % 2**20, n >> 2990)
print((10**1000) // (10**999 + 1), (10**1000) % 97)
big = (1 << 3999) + 1
print(big % 1000003, big // (1 << 3990), big.bit_length())
