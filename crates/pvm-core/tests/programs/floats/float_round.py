# round() with and without ndigits, banker's rounding, binary representation effects.
for v in [0.5, 1.5, 2.5, 3.5, -0.5, -1.5, -2.5, 2.675, 1.005, 0.125, 0.375, 1234.5678, -1234.5678]:
    print(v, round(v), round(v, 1), round(v, 2), round(v, -1), round(v, 0))
print(type(round(2.5)).__name__, type(round(2.5, 0)).__name__)
print(round(1e300, -299), round(123.456, 5), round(0.1 + 0.2, 15), round(2.5e-10, 10))
print(round(5e-324, 400), round(-0.4), round(-0.0, 1))
for bad in [float("inf"), float("nan")]:
    try:
        round(bad)
    except (OverflowError, ValueError) as e:
        print(type(e).__name__, e)
