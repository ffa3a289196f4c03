# Built-in type constructors refuse extra positional arguments with CPython's messages;
# str(x, encoding) decodes bytes and bytearray and refuses anything else. Subclasses keep
# accepting whatever their own __init__ takes.
cases = [
    lambda: str(1, 2, 3, 4),
    lambda: str(1, 2),
    lambda: str(1, encoding="utf-8"),
    lambda: int(1, 2, 3),
    lambda: float(1, 2),
    lambda: bool(1, 2),
    lambda: list(1, 2),
    lambda: tuple(1, 2),
    lambda: bytes(1, 2, 3, 4),
    lambda: bytearray(1, 2, 3, 4),
    lambda: dict(1, 2),
]
for f in cases:
    try:
        print("ok", repr(f()))
    except TypeError as e:
        print("TypeError:", e)

print(str(b"ab", "utf-8"), str(b"cd", "utf-8", "strict"), str(bytearray(b"ef"), "utf-8"))
print(str(b"gh", encoding="utf-8"), repr(str()), str(12), str("x"), list(), tuple(), dict())


class Pair(list):
    def __init__(self, a, b):
        super().__init__([a, b])


class Text(str):
    pass


print(Pair(1, 2), Text("hi"), int("ff", 16), float("1.5"), bool([]))

more = [
    lambda: str("abc", "utf-8"),
    lambda: str(b"x", encoding=5),
    lambda: str(b"x", "utf-8", 5),
    lambda: str(1, errors="strict"),
]
for f in more:
    try:
        print("ok", repr(f()))
    except TypeError as e:
        print("TypeError:", e)


class S(str):
    def __init__(self, v, tag):
        pass


try:
    S("a", "b")
except TypeError as e:
    print("TypeError:", e)


class T(tuple):
    def __init__(self, a, b):
        pass


try:
    T(1, 2)
except TypeError as e:
    print("TypeError:", e)
