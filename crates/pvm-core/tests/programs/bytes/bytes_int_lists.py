# Converting between bytes, lists of ints, and strings of hex/bits.
b = bytes([0, 1, 127, 128, 254, 255])
print(list(b), [hex(x) for x in b], [f"{x:08b}" for x in b[:3]], sum(b), max(b), min(b))
print(bytes(reversed(b)), bytes(sorted(b, reverse=True)), bytes(x ^ 0xFF for x in b))
bits = "".join(f"{x:08b}" for x in b)
back = bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits), 8))
print(len(bits), back == b)
words = [int.from_bytes(b[i:i + 2], "big") for i in range(0, len(b), 2)]
print(words, b"".join(w.to_bytes(2, "big") for w in words) == b)
print(bytes.fromhex(b.hex()) == b, bytearray(b).hex(" "), b.hex().upper())
