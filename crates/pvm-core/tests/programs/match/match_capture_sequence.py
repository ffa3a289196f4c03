# Capture and sequence patterns, including star patterns.
def describe(seq):
    match seq:
        case []:
            return "empty"
        case [x]:
            return f"one: {x}"
        case [x, y]:
            return f"two: {x}, {y}"
        case [first, *middle, last]:
            return f"first={first} middle={middle} last={last}"
print([describe(s) for s in [[], [1], (1, 2), [1, 2, 3, 4], range(3)]])
def not_str(v):
    match v:
        case [a, b]:
            return ("pair", a, b)
        case _:
            return ("no match",)
print(not_str("ab"), not_str(b"ab"), not_str([1, 2]), not_str({1: 2, 3: 4}))
def nested(v):
    match v:
        case [(a, b), [c, *rest]]:
            return a + b + c + len(rest)
        case [*_, 0]:
            return "ends with zero"
        case [_, _, *_]:
            return "at least two"
        case _:
            return None
print(nested([(1, 2), [3, 4, 5]]), nested([5, 6, 0]), nested([5, 6, 7]), nested([1]))
