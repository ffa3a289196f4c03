# struct round trips over many formats and values.
import struct

cases = [
    ("<b", [-128, 0, 127]), (">B", [0, 255]), ("<h", [-32768, 32767]), (">H", [0, 65535]),
    ("<i", [-2 ** 31, 2 ** 31 - 1]), (">I", [0, 2 ** 32 - 1]), ("<q", [-2 ** 63, 2 ** 63 - 1]),
    (">Q", [0, 2 ** 64 - 1]), ("<f", [0.0, -1.5, 3.4028234663852886e38, 1e-45]),
    (">d", [0.1, -0.0, 1e308, 5e-324]), ("<e", [0.5, -2.0, 65504.0]), ("<?", [True, False]),
]
for fmt, values in cases:
    for v in values:
        b = struct.pack(fmt, v)
        print(fmt, v, b.hex(), struct.unpack(fmt, b)[0])
for fmt in ["@bhiq", "=bhiq", "<bhiq", ">bhiq", "@iq", "@bd", "@?xHc", "3s2x4p", "@5sI", "0s", "@lLnN", "<lL"]:
    print(fmt, struct.calcsize(fmt))
print(struct.pack("@bhiq", 1, 2, 3, 4).hex(), struct.pack("@iq", 7, 8).hex(), struct.pack("<5s", b"ab").hex())
print(struct.unpack("<3h", struct.pack("<3h", 1, -2, 3)), struct.pack(">c3s", b"x", b"yz"))
print(struct.pack("<f", 0.1).hex(), struct.unpack("<f", struct.pack("<f", 0.1))[0], struct.pack(">e", 1.0009765625).hex())
for fmt, args in [("<f", (1e39,)), ("<e", (70000.0,)), ("<c", (b"ab",)), ("<?", ([],)), ("3x", ()), ("<q", (1.5,)), ("<I", (True,))]:
    try:
        print(fmt, struct.pack(fmt, *args).hex())
    except (struct.error, OverflowError, TypeError) as e:
        print(fmt, type(e).__name__, e)
for bad in ["<z", "<3", "!!", "<0q"]:
    try:
        print(bad, struct.calcsize(bad))
    except struct.error as e:
        print(bad, "error:", e)
