# Scientific notation outputs for a range of magnitudes.
for e in range(-20, 25, 4):
    v = 1.2345 * 10.0 ** e
    print(e, repr(v), f"{v:e}", f"{v:.3g}", f"{v:g}", str(v))
for v in [1e-310, 2.5e-320, 1.7e308, 123456789.0 * 1e10]:
    print(repr(v), f"{v:.3e}")
