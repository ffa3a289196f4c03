# Decimal arithmetic over many operand pairs and rounding modes.
from decimal import Decimal, localcontext, ROUND_DOWN, ROUND_HALF_UP, ROUND_HALF_EVEN, ROUND_CEILING, ROUND_FLOOR, ROUND_UP, ROUND_HALF_DOWN, ROUND_05UP
import decimal

vals = ["0", "1", "-1", "0.5", "-0.5", "1.05", "2.675", "123.456", "-7.25", "1E+5", "9.999", "0.0001", "1000000.01", "-0"]
for a in vals:
    row = []
    for b in ["3", "0.7", "-2.5"]:
        x, y = Decimal(a), Decimal(b)
        row.append(f"{x + y}|{x - y}|{x * y}|{x / y}|{x // y}|{x % y}")
    print(a, " ".join(row))
modes = [ROUND_DOWN, ROUND_HALF_UP, ROUND_HALF_EVEN, ROUND_CEILING, ROUND_FLOOR, ROUND_UP, ROUND_HALF_DOWN, ROUND_05UP]
for v in ["2.5", "3.5", "-2.5", "2.45", "2.55", "-2.55", "1.005", "0.125", "9.995", "-0.005"]:
    print(v, [str(Decimal(v).quantize(Decimal("0.01"), rounding=m)) for m in modes],
          [str(Decimal(v).quantize(Decimal("1"), rounding=m)) for m in modes])
with localcontext() as ctx:
    for p in (1, 3, 6, 12):
        ctx.prec = p
        print(p, Decimal(2) / Decimal(3), Decimal(10) / Decimal(7), Decimal("123456.789") + 0, Decimal(2).sqrt(), Decimal("1.5") ** 3)
for s in ["1.23E-7", "-0.000", "1e100", "12.3450", "0E-8", "Infinity", "-Inf", "NaN", "sNaN", "  7.0  ", "1_000.5"]:
    d = Decimal(s)
    print(repr(d), str(d), d.is_finite(), d.is_zero() if d.is_finite() else None, d.normalize() if d.is_finite() else d)
for f in [0.1, 1.5, -2.75, 1e20, 3.0]:
    print(Decimal(f), Decimal(str(f)), Decimal(f) == Decimal(str(f)))
for fmt in [".2f", ".0f", ",.3f", "e", ".3e", "%", ">12.2f", "+.1f", ""]:
    print(fmt, format(Decimal("12345.6789"), fmt), format(Decimal("-0.00049"), fmt))
ctx = decimal.getcontext()
print(ctx.prec, ctx.Emax, ctx.Emin, ctx.capitals)
print(Decimal("1.30") == Decimal("1.3"), hash(Decimal("1.30")) == hash(Decimal("1.3")), sorted([Decimal("1.1"), Decimal("-2"), Decimal("0.5")]))
print(Decimal(7).to_integral_value(rounding=ROUND_HALF_UP), Decimal("7.5").to_integral_value(), round(Decimal("7.5")), round(Decimal("8.5")), round(Decimal("-7.5")))
print(Decimal("10").as_integer_ratio() if hasattr(Decimal, "as_integer_ratio") else None, Decimal("0.75").as_tuple())
