# ord, chr, repr, ascii, str, format.
print(ord("A"), ord("é"), ord("€"), ord("\n"), chr(65), chr(0x263A), repr(chr(7)), ascii("é€\n"))
print(repr(1), repr(1.0), repr("s"), repr(b"b"), repr(None), repr(True), repr([1, "a"]), repr((1,)), repr({1: "a"}))
print(format(3.14159, ".2f"), format(42, "05d"), format("x", ">3"), format(True), format(255, "x"), format(1234567, ","))
print(str(1), str(1.5), str("s"), str(b"b"), str(None), str([1, "a"]), str(False))
print([repr(x) for x in [0.1, 1e100, -0.0, float("inf"), 10**20]])
