import math
from math import pi, sqrt

print(math.sqrt(2), sqrt(16), math.floor(-2.5), math.ceil(2.1), math.trunc(-3.7))
print(math.gcd(12, 18), math.lcm(4, 6), math.factorial(20), math.comb(10, 3), math.perm(5, 2))
print(math.isqrt(10 ** 20 + 1), math.prod([1, 2, 3, 4]), math.fsum([0.1] * 10), sum([0.1] * 10))
print(pi, math.e, math.tau, math.inf, -math.inf, math.isnan(math.nan))
print(math.exp(1), math.log(100, 10), math.log2(1024), math.log10(0.001), math.log1p(1e-10))
print(math.sin(pi / 6), math.cos(0), math.atan2(1, 1), math.hypot(3, 4), math.dist((0, 0), (1, 1)))
print(math.pow(2, 0.5), math.fmod(7, 3), math.copysign(1, -0.0), math.frexp(8.0), math.ldexp(0.5, 4))
print(math.isclose(0.1 + 0.2, 0.3), math.modf(2.75), math.degrees(pi), math.radians(180))
try:
    math.sqrt(-1)
except ValueError as e:
    print("ValueError:", e)
try:
    math.log(0)
except ValueError as e:
    print("ValueError:", e)
