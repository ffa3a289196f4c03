# Checksums over bytes: adler32 and crc32 written in Python, fnv-1a.
def adler32(data):
    a, b = 1, 0
    for x in data:
        a = (a + x) % 65521
        b = (b + a) % 65521
    return (b << 16) | a
def crc32(data):
    crc = 0xFFFFFFFF
    for x in data:
        crc ^= x
        for _ in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF
def fnv1a(data):
    h = 0xCBF29CE484222325
    for x in data:
        h ^= x
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h
for s in [b"", b"a", b"abc", b"The quick brown fox jumps over the lazy dog", bytes(range(256))]:
    print(len(s), hex(adler32(s)), hex(crc32(s)), hex(fnv1a(s)))
