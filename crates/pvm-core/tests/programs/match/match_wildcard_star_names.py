# Capture names, _ never binds, and bindings persist after the match.
def f(v):
    match v:
        case [x, _, _]:
            return x, "three"
        case [x, *_]:
            return x, "many"
        case {"k": _, **kw}:
            return kw, "map"
    return None, "none"
print(f([1, 2, 3]), f([9]), f({"k": 1, "z": 2}), f(5))
match (1, 2):
    case (a, b):
        pass
print(a, b)
