# Float formatting with format specs, %-formatting and str.format.
vals = [0.0, 1.0, -1.5, 3.14159265, 1234567.891, 1e-7, 2.5e20, 0.000123456, 100.0, 1 / 3]
specs = [".2f", ".0f", "e", ".3e", "g", ".3g", ".10g", "%", ".1%", "10.3f", "<10.2f", "^12.4g", "+.2f", ",.2f", "_.3f", "012.3f", "E", "G", "#.0f", ""]
for v in vals:
    print(" | ".join(format(v, s) for s in specs))
print("%.3f %5.1f %-8.2f| %e %g %G %10.4e" % (3.14159, 2.25, 1.5, 12345.678, 0.00001234, 1e20, 6.02e23))
print("{:.2f} {:8.3f} {:+g} {!r}".format(2.675, 1.0005, 1e-5, 0.1))
print(f"{2.5:.0f} {3.5:.0f} {0.125:.2f} {0.375:.2f} {1e16:.1f} {123.456:.1e}")
print(format(float("inf"), ".2f"), format(float("nan"), "e"), format(-float("inf"), "10g"))
print(str(1e-5), str(0.0001), str(1e15), str(1e16), str(-1e-320))
