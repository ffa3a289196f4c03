# float methods.
for v in [0.5, 1.0, 2.25, -0.75, 3.0, 1e300, 0.1]:
    print(v, v.is_integer(), v.as_integer_ratio(), v.hex())
print(float.fromhex("0x1.8p1"), float.fromhex("-0x1p-2"), float.fromhex("0x1.999999999999ap-4"))
print((2.5).conjugate(), (2.5).real, (2.5).imag, float.__name__)
print((0.1).__round__(1) if hasattr(0.1, "__round__") else None)
print(int(7.999999999999999), int(7.9999999999999999), 0.1 + 0.2 == 0.30000000000000004)
