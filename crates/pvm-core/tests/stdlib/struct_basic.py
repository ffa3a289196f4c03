import struct

print(struct.pack(">I", 1), struct.pack("<I", 1), struct.pack(">hHbB", -2, 65535, -1, 255))
print(struct.pack(">q", -(2 ** 63)), struct.pack(">Q", 2 ** 64 - 1))
print(struct.pack(">d", 1.5), struct.pack("<f", -0.25), struct.pack(">?x3s", True, b"abcd"))
print(struct.unpack(">I", b"\x00\x00\x01\x00"), struct.unpack("<hH", b"\xff\xff\xff\xff"))
print(struct.unpack(">d", struct.pack(">d", 3.141592653589793)), struct.unpack(">f", struct.pack(">f", 0.1)))
print(struct.calcsize(">IHB"), struct.calcsize("<10s2q"), struct.calcsize(">5p"))
print(struct.pack(">5p", b"hi"), struct.unpack(">5p", b"\x02hiXX"))
print(struct.pack("!i", 7), struct.pack("=B", 7))
print(list(struct.iter_unpack(">H", b"\x00\x01\x00\x02")), struct.unpack_from(">H", b"xx\x00\x05", 2))
s = struct.Struct(">IH")
print(s.size, s.format, s.pack(1, 2), s.unpack(b"\x00\x00\x00\x01\x00\x02"))
buf = bytearray(6)
struct.pack_into(">HI", buf, 0, 1, 2)
print(buf)
for fmt, args in [(">B", (256,)), (">h", (40000,)), (">I", (-1,)), (">I", ("x",)), (">II", (1,))]:
    try:
        struct.pack(fmt, *args)
    except struct.error as e:
        print("error:", e)
try:
    struct.unpack(">I", b"\x00")
except struct.error as e:
    print("error:", e)
for p in "<>=!@":
    for c in "bBhHiIlLqQ":
        size = struct.calcsize(p + c)
        for v in (2 ** (8 * size), -(2 ** (8 * size)) - 1):
            try:
                struct.pack(p + c, v)
            except struct.error as e:
                print(p + c, e)
