# Edge cases of float // and % and divmod.
cases = [(1.0, 0.1), (-1.0, 0.1), (0.5, -0.2), (1e300, 1e-300 if False else 3.0), (-0.0, 5.0), (5.0, -3.0), (-5.0, 3.0), (2.0, float("inf")), (-2.0, float("inf"))]
for a, b in cases:
    print(a, b, a // b, a % b, divmod(a, b))
print(7 % -0.5, -7 % 0.5, 6.5 // 0.5, -(6.5 // -0.5))
