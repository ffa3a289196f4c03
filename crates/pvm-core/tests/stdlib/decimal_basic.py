from decimal import Decimal, getcontext, localcontext, ROUND_HALF_UP, ROUND_DOWN, InvalidOperation, DivisionByZero
import decimal

print(Decimal("1.1") + Decimal("2.2"), Decimal("1.10") * 3, Decimal(1) / Decimal(3))
print(Decimal("10") / Decimal("4"), Decimal("7") // Decimal("2"), Decimal("-7") % Decimal("3"), divmod(Decimal(7), Decimal(2)))
print(Decimal("0.1") + Decimal("0.2") == Decimal("0.3"), Decimal(0.1))
print(Decimal("2.675").quantize(Decimal("0.01")), Decimal("2.675").quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
print(Decimal("2.5").quantize(Decimal("1")), Decimal("3.5").quantize(Decimal("1")), Decimal("-2.5").quantize(Decimal("1"), rounding=ROUND_DOWN))
print(repr(Decimal("1.000")), str(Decimal("1E+3")), Decimal("1e-7"), Decimal("123.456e2"))
print(Decimal(2).sqrt(), Decimal("1.5") ** 2, Decimal(2) ** -2, -Decimal("0"), abs(Decimal("-3.2")))
print(Decimal("3.14159").as_tuple(), Decimal((0, (1, 2), -1)), Decimal("1.20").normalize())
print(getcontext().prec, getcontext().rounding)
with localcontext() as ctx:
    ctx.prec = 5
    print(Decimal(1) / Decimal(7))
print(Decimal(1) / Decimal(7))
print(Decimal("1.5") < 2, Decimal("2") == 2, Decimal("0.5") == 0.5, max(Decimal("1"), Decimal("1.5")))
print(int(Decimal("3.9")), float(Decimal("1.25")), round(Decimal("2.567"), 2), f"{Decimal('1234.5'):.2f}")
print(Decimal("NaN").is_nan(), Decimal("Infinity") > 10 ** 100, Decimal("-0").is_signed())
print(sum([Decimal("0.01")] * 100), Decimal("1.23").adjusted())
try:
    Decimal(1) / Decimal(0)
except DivisionByZero as e:
    print("DivisionByZero:", type(e).__name__, isinstance(e, ZeroDivisionError))
try:
    Decimal("abc")
except InvalidOperation as e:
    print("InvalidOperation raised")
print(hash(Decimal("1.0")) == hash(1), Decimal("12.50").to_integral_value(), Decimal(5).compare(Decimal(3)))
