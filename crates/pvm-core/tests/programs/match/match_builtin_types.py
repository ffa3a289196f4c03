# Class patterns for builtin types (self-matching positional).
def t(v):
    match v:
        case bool(b):
            return f"bool {b}"
        case int(i):
            return f"int {i}"
        case float(f):
            return f"float {f}"
        case str(s):
            return f"str {s}"
        case bytes(b):
            return f"bytes {b!r}"
        case list([x, *_]):
            return f"list starting {x}"
        case list():
            return "empty list"
        case tuple((a, b)):
            return f"pair {a} {b}"
        case dict({"k": v}):
            return f"dict with k={v}"
        case dict():
            return "other dict"
        case _:
            return "?"
for v in [True, 3, 2.0, "s", b"b", [9, 8], [], (1, 2), (1, 2, 3), {"k": 0}, {}, None]:
    print(t(v))
