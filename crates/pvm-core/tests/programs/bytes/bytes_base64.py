# base64 encoder/decoder written in Python (no imports).
ALPH = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
def b64encode(data):
    out = bytearray()
    for i in range(0, len(data), 3):
        chunk = data[i:i + 3]
        n = int.from_bytes(chunk + b"\x00" * (3 - len(chunk)), "big")
        for j in range(4):
            out.append(ALPH[(n >> (18 - 6 * j)) & 63])
        if len(chunk) < 3:
            out[-(3 - len(chunk)):] = b"=" * (3 - len(chunk))
    return bytes(out)
def b64decode(text):
    rev = {c: i for i, c in enumerate(ALPH)}
    out = bytearray()
    text = text.rstrip(b"=")
    bits = nbits = 0
    for c in text:
        bits = (bits << 6) | rev[c]
        nbits += 6
        if nbits >= 8:
            nbits -= 8
            out.append((bits >> nbits) & 0xFF)
    return bytes(out)
for s in [b"", b"f", b"fo", b"foo", b"foob", b"fooba", b"foobar", "héllo".encode(), bytes(range(10))]:
    e = b64encode(s)
    print(s, e, b64decode(e) == s)
