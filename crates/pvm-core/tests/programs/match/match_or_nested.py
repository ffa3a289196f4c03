# Or-patterns binding the same names, nested in sequences and mappings.
def norm(v):
    match v:
        case (x, 0) | (0, x):
            return f"axis {x}"
        case {"a": x} | {"b": x}:
            return f"key {x}"
        case [1 | 2 | 3 as small, *_]:
            return f"small head {small}"
        case _:
            return "none"
for v in [(5, 0), (0, 7), (1, 1), {"a": 1}, {"b": 2}, {"c": 3}, [2, 9], [4, 9]]:
    print(v, norm(v))
