import math
# gcd/lcm/isqrt/comb/perm/factorial on ints.
print(math.gcd(12, 18), math.gcd(-12, 18), math.gcd(0, 5), math.gcd(0, 0))
print(math.gcd(2**200, 6**80), math.gcd(12, 18, 27))
print(math.lcm(4, 6), math.lcm(3, 5, 7), math.lcm(0, 5))
print([math.isqrt(n) for n in [0, 1, 2, 3, 4, 15, 16, 17, 99, 100, 10**20]])
print(math.isqrt(2**3000) == 2**1500, math.isqrt(10**1000 + 5) == 10**500)
print(math.comb(10, 3), math.comb(50, 25), math.comb(5, 7), math.perm(5, 2), math.perm(5))
print(math.factorial(0), math.factorial(20), math.factorial(100) % 10**9 == 0)
print(str(math.factorial(300))[:30])
def egcd(a, b):
    if b == 0:
        return a, 1, 0
    g, x, y = egcd(b, a % b)
    return g, y, x - (a // b) * y
g, x, y = egcd(240, 46)
print(g, x, y, 240 * x + 46 * y)
print(egcd(3**100, 2**150)[0])
