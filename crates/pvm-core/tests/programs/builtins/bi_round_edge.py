# round() on ints and floats with many ndigits values.
for v in [0, 7, 15, 25, -25, 1234, 10**20 + 5]:
    print(v, [round(v, n) for n in (-3, -2, -1, 0, 1)])
for v in [0.5, 1.5, 0.25, 0.35, 2.675, -1.25, 123.456]:
    print(v, [round(v, n) for n in (-1, 0, 1, 2)])
