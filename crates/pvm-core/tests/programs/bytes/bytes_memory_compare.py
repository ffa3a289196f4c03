# Comparisons, hashing-free sorting, and conversions between bytes kinds.
items = [b"b", b"a", b"ab", b"", b"\xff", b"\x00", bytearray(b"aa")]
print(sorted(items))
print(b"abc".split(b"b"), bytearray(b"a,b").split(b","), list(map(bytes, [bytearray(b"q")])))
mv_like = bytes(bytearray(b"xyz"))
print(mv_like, b"skip", b"%d-%s-%x" % (5, b"ab", 255))
print(b"%5s|%-4d|%c" % (b"ab", 7, 65), b"%c" % b"z", b"%%")
print(b"ab".decode("ascii").encode("utf-8") == b"ab", str(bytearray(b"x")), repr(bytearray()))
