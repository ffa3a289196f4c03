# hex / fromhex / int conversions / encodings.
b = bytes(range(0, 256, 17))
print(b.hex(), b.hex(":"), b.hex("-", 2), bytes.fromhex("de ad be ef"), bytes.fromhex("00ff"))
print(bytearray.fromhex("0102").hex(), b"".hex(), b"\x00".hex())
print(int.from_bytes(b, "big"), int.from_bytes(b, "little"), int.from_bytes(b"\x80", "big", signed=True))
print((1234567).to_bytes(4, "big"), (1234567).to_bytes(4, "little"), (-2).to_bytes(2, "big", signed=True))
n = 2 ** 255 - 19
enc = n.to_bytes(32, "big")
print(enc.hex(), int.from_bytes(enc, "big") == n)
try:
    bytes.fromhex("zz")
except ValueError as e:
    print("ValueError", e)
print(b"caf\xc3\xa9".decode(), "café".encode("utf-8").hex(), list("ab".encode()))
print(bytes([x ^ 0x5A for x in b"secret"]).hex(), bytes(x ^ 0x5A for x in bytes.fromhex("293f392f3f2e")))
