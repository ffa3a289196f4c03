# inf and nan semantics.
inf = float("inf")
nan = float("nan")
print(inf + 1, inf - inf, inf * 0, -inf * -1, 1 / inf, inf > 1e308, -inf < -1e308)
print(nan == nan, nan != nan, nan < 1, nan > 1, nan == 1, [nan] == [nan][:0])
print(max(1.0, inf), min(-inf, 0.0), abs(-inf), inf == inf, inf is not None)
print(str(inf), repr(-inf), str(nan), repr(-nan))
print(1e308 + 1e308, -1e308 - 1e308, 1e-320 / 1e10, 5e-324 / 2)
x = [1.0, nan, 3.0]
print(x.count(1.0), len(x), sum([1.0, inf]), sum([inf, -inf]))
try:
    1.0 / 0
except ZeroDivisionError as e:
    print("ZeroDivisionError", e)
try:
    1.0 % 0.0
except ZeroDivisionError as e:
    print("ZeroDivisionError", e)
try:
    0.0 ** -1
except ZeroDivisionError as e:
    print("ZeroDivisionError", e)
print((-8.0) ** (1 / 3) == (-8.0) ** (1 / 3) if False else "complex-skipped")
print(inf // 1, -inf % 5 if False else "skip", 5 % inf, -5 % inf)
