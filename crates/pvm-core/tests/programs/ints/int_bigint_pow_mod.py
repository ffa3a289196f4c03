# Modular exponentiation with big moduli (results stay bounded).
p = 2 ** 521 - 1
print(pow(3, p - 1, p))
print(pow(2, 10**6, p) % 10**20)
m = 2 ** 1279 - 1
v = pow(5, 2**100, m)
print(v.bit_length() <= 1279, v % 10**12)
inv = pow(12345, -1, p)
print(inv * 12345 % p)
# Fermat checks on small primes
primes = [n for n in range(2, 200) if all(n % d for d in range(2, int(n ** 0.5) + 1))]
print(all(pow(2, q - 1, q) == 1 for q in primes if q != 2))
print(len(primes), primes[-5:])
# RSA toy
P, Q = 1000000007, 998244353
N = P * Q
phi = (P - 1) * (Q - 1)
e = 65537
d = pow(e, -1, phi)
msg = 123456789012345
c = pow(msg, e, N)
print(c, pow(c, d, N) == msg)
