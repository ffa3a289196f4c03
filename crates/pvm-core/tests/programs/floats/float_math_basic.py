import math
# Exact / correctly-rounded math functions (full repr is safe here).
print(math.sqrt(2), math.sqrt(16), math.sqrt(0.25), math.sqrt(1e-300), math.sqrt(2.0 ** 101))
print(math.floor(2.7), math.floor(-2.7), math.ceil(2.1), math.ceil(-2.1), math.trunc(-2.7), math.trunc(2.7))
print(math.floor(5), math.ceil(1e20), type(math.floor(2.5)).__name__)
print(math.fabs(-3), math.fmod(7.5, 2), math.fmod(-7.5, 2), math.copysign(3, -0.0), math.copysign(-2.0, 1))
print(math.modf(3.75), math.modf(-3.75), math.frexp(8.0), math.frexp(0.3), math.ldexp(0.75, 4))
print(math.fsum([0.1] * 10), math.fsum([1e100, 1.0, -1e100]), sum([1e100, 1.0, -1e100]))
print(math.isfinite(1e308), math.isinf(float("-inf")), math.isnan(float("nan")), math.isnan(1.0))
print(math.isclose(0.1 + 0.2, 0.3), math.isclose(1.0, 1.1), math.isclose(1e-12, 0, abs_tol=1e-9))
print(math.pi, math.e, math.tau, math.inf, -math.inf, math.nan)
print(math.floor(-0.5), math.ceil(-0.5), math.sqrt(-0.0))
try:
    math.sqrt(-1)
except ValueError as e:
    print("ValueError", e)
