# bytes literals, indexing, slicing, iteration, repr.
b = b"hello\x00\xff\n\t'\""
print(b, len(b), b[0], b[-1], b[1:4], b[::-1], list(b[:3]))
print(bytes(3), bytes([65, 66, 67]), bytes(range(5)), bytes(b"x"), bytes("é", "utf-8"))
print(b"abc" + b"def", b"ab" * 3, b"a" in b"cat", 97 in b"cat", b"" in b"x")
print(b"abc" < b"abd", b"abc" == b"abc", b"" < b"\x00", max(b"hello"), sum(b"abc"))
print(repr(b"\x7f\x80"), repr(b"it's"), repr(b'say "x"'), repr(b"both ' \""))
try:
    bytes([256])
except ValueError as e:
    print("ValueError", e)
try:
    b"abc"[0] = 1
except TypeError as e:
    print("TypeError", e)
try:
    b"a" + "b"
except TypeError as e:
    print("TypeError", e)
for x in b"hi!":
    print(x, chr(x))
