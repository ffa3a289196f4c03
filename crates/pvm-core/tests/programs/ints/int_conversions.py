# int() constructor and int methods.
print(int(3.9), int(-3.9), int(True), int("  -12  "), int(2.5e10))
print(int("777", 8), int("ff", 16), int("Z", 36), int("10", 0), int("0x10", 0))
for bad in ["", "1.5", "abc", "0x", "1__0"]:
    try:
        int(bad)
    except ValueError as e:
        print("ValueError", e)
try:
    int("12", 1)
except ValueError as e:
    print("ValueError", e)
print((255).to_bytes(2, "big"), (255).to_bytes(2, "little"))
print((-1).to_bytes(2, "big", signed=True), (1024).to_bytes(4, byteorder="big"))
print(int.from_bytes(b"\x01\x00", "big"), int.from_bytes(b"\x01\x00", "little"))
print(int.from_bytes(b"\xff\xfe", "big", signed=True))
print((2**100).to_bytes(13, "big").hex())
try:
    (256).to_bytes(1, "big")
except OverflowError as e:
    print("OverflowError", e)
print((10).as_integer_ratio(), (7).numerator, (7).denominator, (7).real, (7).imag)
print((12).conjugate(), int.__name__)
