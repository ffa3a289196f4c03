# Value patterns (dotted names) vs capture patterns.
class Color:
    RED = "red"
    GREEN = "green"
    BLUE = "blue"
class Limits:
    MAX = 10
def paint(c):
    match c:
        case Color.RED:
            return "stop"
        case Color.GREEN:
            return "go"
        case Limits.MAX:
            return "limit"
        case other:
            return f"captured {other}"
print([paint(c) for c in ["red", "green", 10, "blue"]])
def inc_match(v):
    match v:
        case (x, x2) if x == x2:
            return "same"
        case (x, _):
            return f"first {x}"
print(inc_match((1, 1)), inc_match((1, 2)))
