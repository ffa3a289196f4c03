# Star in sequence patterns at different positions, and **rest capture contents.
def f(v):
    match v:
        case [*head, 9]:
            return ("ends9", head)
        case [0, *tail]:
            return ("starts0", tail)
        case {"id": i, **rest}:
            return ("id", i, rest)
        case _:
            return ("none",)
for v in [[1, 2, 9], [9], [0, 1, 2], [0], {"id": 1, "x": 2, "y": 3}, {"id": 5}, [1]]:
    print(f(v))
