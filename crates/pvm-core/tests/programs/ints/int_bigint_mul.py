# Big integer multiplication and addition; results stay below 4096 bits.
a = 3 ** 1000
b = 7 ** 700
print(a.bit_length(), b.bit_length())
c = a * b
print(c.bit_length())
print(c % 1000000007, c // (10 ** 1000) % 10**12)
print(str(a)[:40], str(a)[-40:], len(str(a)))
print(str(b)[:30], len(str(b)))
s = 0
for k in range(1, 200):
    s += k ** 50
print(s.bit_length(), s % 998244353)
print((a - b) % 10**20, (b - a) % 10**20, (b - a) < 0)
print(-a // b, -a % b == (-a) - b * (-a // b))
f = 1
for i in range(2, 401):
    f *= i
print(f.bit_length(), str(f)[:25], str(f).count("0"))
