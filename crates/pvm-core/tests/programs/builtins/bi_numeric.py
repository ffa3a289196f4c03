# divmod, pow, round, hex/bin/oct, int/float/bool constructors.
print(divmod(17, 5), divmod(-17, 5), divmod(17.5, 5), divmod(-7, -2))
print(pow(2, 8), pow(2, -1), pow(2, 8, 7), pow(2.0, 3), pow(-8, 1 / 3) if False else "skip", pow(0, 0))
print(round(3.14159, 3), round(2.5), round(-2.5), round(7, -1), round(0.5 + 1e-9))
print(hex(255), hex(-255), bin(10), bin(-10), oct(64), oct(-64), hex(0), bin(0))
print(int(), float(), bool(), str(), int("42"), int(" -7 "), float("2.5"), bool("False"), bool(0.0), int(True))
print(int(3.99), int(-3.99), float(3), complex if False else "nocomplex", bool([]), bool([[]]))
