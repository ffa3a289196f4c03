# More bytearray mutation: slice assignment with steps, extend from iterables, in-place ops.
ba = bytearray(range(10))
ba[2:8:2] = bytes([100, 101, 102])
print(list(ba))
del ba[::3]
print(list(ba))
ba.extend(range(3))
ba.extend([7, 8])
print(list(ba), ba.index(100), 101 in ba, b"\x65\x00" in ba)
ba *= 2
print(len(ba), ba.count(0))
ba[:] = b"reset"
print(ba, ba.startswith(b"re"), ba.isalpha(), ba.title(), ba.hex())
ba.extend(b"XYZ")
print(ba.lower(), ba.split(b"t"), ba[::-1], ba.rstrip(b"ZY"))
try:
    ba.remove(0)
except ValueError as e:
    print("ValueError", e)
try:
    bytearray(b"").pop()
except IndexError as e:
    print("IndexError", e)
print(bytearray(b"abc") + bytearray(b"d"), bytearray(b"ab") == bytearray(b"ab"), bytearray(b"a") < b"b")
