# A hexdump of a bytes object.
data = "Cowboy PVM hexdump: ü€ test\x00\x01\x02".encode() + bytes(range(250, 256))
for off in range(0, len(data), 16):
    chunk = data[off:off + 16]
    hx = " ".join(f"{b:02x}" for b in chunk)
    asc = "".join(chr(b) if 32 <= b < 127 else "." for b in chunk)
    print(f"{off:08x}  {hx:<47}  |{asc}|")
print(len(data))
