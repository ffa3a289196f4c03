# Formatting ints with format specs.
n = 48879
for spec in ["d", "x", "X", "o", "b", "#x", "#o", "#b", "08d", "+d", " d", ">10", "<10", "^10", "*^11", ",", "_", "_b", "#010x", "=+8", "c", "e", ".2f", "%"]:
    print(repr(spec), repr(format(n, spec)))
print(format(-42, "08d"), format(-42, "x"), format(-42, "#x"), format(0, "#b"))
print(f"{255:#06x}|{255:<8}|{255:>+8}|{-255:^9}|{1234567:,}")
print("{:>12,}".format(10**9), "{:0>5}".format(7), "{:n}".format(1234))
print(hex(0), oct(-8), bin(-5), hex(2**64))
