# Mixing ints and floats: promotion, comparisons and conversions.
print(1 + 2.0, 3 * 1.5, 7 // 2.0, 7 % 2.5, 2 ** 0.5 * 2 ** 0.5)
print(1 == 1.0, 2**53 + 1 == 2.0**53, 2**53 + 1 > 2.0**53, 10**20 == 1e20, 10**23 == 1e23)
print(int(1e20), int(-2.9), int(2.9), int(1e300) % 10**10, float(10**20), float(2**60 + 1))
print(float("1.5"), float(" -2.5e3 "), float("inf"), float("-Infinity"), float("1_000.5"), float(7))
for bad in ["abc", "1.2.3", ""]:
    try:
        float(bad)
    except ValueError as e:
        print("ValueError", e)
try:
    float(2**1100)
except OverflowError as e:
    print("OverflowError", e)
try:
    int(float("inf"))
except OverflowError as e:
    print("OverflowError", e)
try:
    int(float("nan"))
except ValueError as e:
    print("ValueError", e)
print(max(1, 2.0), min(1.0, 1), max(-1, -1.0), sorted([3, 1.5, 2, 0.5]))
print(True + 0.5, 3 / True, 5 // 1.0)
