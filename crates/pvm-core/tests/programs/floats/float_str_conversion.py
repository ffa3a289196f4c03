# str <-> float round trips.
for s in ["0.1", "1e-10", "123.456", "-0.0", "1e400", "-1e400", "4.9e-324", "1e-400", "  3.  ", ".5", "5.", "1E5", "nan", "NaN", "-iNF"]:
    v = float(s)
    print(repr(s), repr(v), float(repr(v)) == v or v != v)
for v in [1 / 7, 2 / 3, 1e-7, 123456.789e3]:
    print(str(v), f"{v}", "%s" % v, "%r" % v, "{}".format(v))
print(str(0.1 + 0.2), str(1.0), str(100.0), str(1e100))
