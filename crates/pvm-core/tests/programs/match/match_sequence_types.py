# Sequence patterns match lists, tuples, ranges, but not str/bytes/dict; length checks.
def m(v):
    match v:
        case (a, b, c):
            return f"three {a}{b}{c}"
        case [a, *rest] if len(rest) > 2:
            return f"long starting {a}"
        case []:
            return "empty"
        case _:
            return "other"
for v in [(1, 2, 3), [4, 5, 6], range(3), "abc", b"abc", [1, 2, 3, 4, 5], (), [], {1: 1, 2: 2, 3: 3}, [1, 2]]:
    print(repr(v), m(v))
