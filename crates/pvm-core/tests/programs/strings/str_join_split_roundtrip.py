# Round trips between split and join with various separators and maxsplit values.
s = "a,b,,c,d,,"
for sep in [",", ",,", "b", "x"]:
    for maxsplit in [-1, 0, 1, 2, 10]:
        parts = s.split(sep, maxsplit)
        rparts = s.rsplit(sep, maxsplit)
        print(repr(sep), maxsplit, parts, rparts, sep.join(parts) == s, sep.join(rparts) == s)
print("  a b   c  ".split(None, 1), "  a b   c  ".rsplit(None, 1), "abc".split("abc"), "".split("x"))
