# Packing fixed-width little/big-endian records by hand.
def pack_u32(n, order="little"):
    return n.to_bytes(4, order)
def pack_i16(n):
    return n.to_bytes(2, "little", signed=True)
def unpack_u32(b, off, order="little"):
    return int.from_bytes(b[off:off + 4], order)
records = [(1, -5, "alice"), (2, 300, "bob"), (4000000000, -32768, "carol")]
buf = bytearray()
for rid, delta, name in records:
    nb = name.encode()
    buf += pack_u32(rid) + pack_i16(delta) + bytes([len(nb)]) + nb
print(buf.hex())
off = 0
while off < len(buf):
    rid = unpack_u32(buf, off)
    delta = int.from_bytes(buf[off + 4:off + 6], "little", signed=True)
    n = buf[off + 6]
    name = buf[off + 7:off + 7 + n].decode()
    print(rid, delta, name)
    off += 7 + n
print(pack_u32(0xDEADBEEF, "big").hex(), pack_u32(0xDEADBEEF).hex())
