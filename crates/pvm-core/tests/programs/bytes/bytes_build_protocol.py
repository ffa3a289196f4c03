# Building a simple binary message format with bytes/bytearray.
def varint(n):
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)
def read_varint(buf, pos):
    shift = result = 0
    while True:
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7
for n in [0, 1, 127, 128, 300, 16384, 2**35 + 5, 2**63]:
    enc = varint(n)
    print(n, enc.hex(), read_varint(enc, 0))
def encode_msg(fields):
    buf = bytearray()
    for key, val in fields:
        kb = key.encode()
        buf += varint(len(kb)) + kb
        if isinstance(val, int):
            buf.append(0)
            buf += varint(val)
        else:
            vb = val.encode()
            buf.append(1)
            buf += varint(len(vb)) + vb
    return bytes(buf)
def decode_msg(buf):
    pos, out = 0, []
    while pos < len(buf):
        n, pos = read_varint(buf, pos)
        key = buf[pos:pos + n].decode()
        pos += n
        tag = buf[pos]
        pos += 1
        if tag == 0:
            v, pos = read_varint(buf, pos)
        else:
            n, pos = read_varint(buf, pos)
            v = buf[pos:pos + n].decode()
            pos += n
        out.append((key, v))
    return out
msg = [("id", 42), ("name", "cowboy"), ("amount", 10**12), ("memo", "héllo")]
enc = encode_msg(msg)
print(len(enc), enc.hex())
print(decode_msg(enc), decode_msg(enc) == msg)
