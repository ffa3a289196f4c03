# Conversions between big ints and strings / other bases.
x = 2 ** 4000 - 1
s = str(x)
print(len(s), s[:20], s[-20:])
print(int(s) == x, int("-" + s) == -x)
h = hex(x)
print(len(h), h[:12], h[-8:])
print(int(h, 16) == x, int(h[2:], 16) == x)
y = 12345678901234567890123456789
print(bin(y)[:20], oct(y), hex(-y))
print(int("zz", 36), int("-101", 2), int("0x1F", 16), int("0o777", 8), int("0b11", 0), int(" 42 "))
print(int("1_000_000"), int("+17"), format(y, ","), format(y, "_x"))
print(format(y, "b")[:16], format(-y, "o"), format(y, "X"))
print(repr(-x)[:10], str(10 ** 300)[:5], len(str(10 ** 300)))
