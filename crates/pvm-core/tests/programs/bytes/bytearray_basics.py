# bytearray is a mutable bytes.
ba = bytearray(b"hello")
ba[0] = 72
ba.append(33)
ba.extend(b" world")
ba += b"!"
print(ba, len(ba), bytes(ba), ba[1:3], ba[-1])
ba[1:3] = b"EY"
print(ba)
ba[0:1] = b""
print(ba)
del ba[0]
del ba[-2:]
print(ba)
ba.insert(0, 65)
print(ba, ba.pop(), ba.pop(0), ba)
ba.remove(ord("o"))
print(ba, ba.find(b"w"), ba.count(b"l"))
ba.reverse()
print(ba)
ba2 = bytearray(4)
print(ba2, bytearray([1, 2, 3]), bytearray("é", "utf-8"), bytearray(b"ab") * 2)
ba3 = bytearray(b"abcdef")
ba3[::2] = b"XYZ"
print(ba3, ba3.upper(), ba3.replace(b"X", b"--"), ba3.decode())
try:
    ba3[0] = 300
except ValueError as e:
    print("ValueError", e)
ba3.clear()
print(ba3, len(ba3), bytearray(b"x") == b"x", b"x" == bytearray(b"x"))
c = ba.copy()
c[0] = 0
print(c != ba, type(ba + b"x").__name__, type(b"x" + ba).__name__)
