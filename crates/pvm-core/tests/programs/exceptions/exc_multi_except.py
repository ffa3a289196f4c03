# Multiple except clauses, tuples of types, order of matching.
def classify(f):
    try:
        f()
    except (KeyError, IndexError) as e:
        return "lookup:" + type(e).__name__
    except ArithmeticError as e:
        return "arith:" + type(e).__name__
    except Exception as e:
        return "other:" + type(e).__name__
    else:
        return "ok"
cases = [lambda: {}["x"], lambda: [][1], lambda: 1 / 0, lambda: int("z"), lambda: None, lambda: 2 ** 0.5, lambda: undefined_name, lambda: "a" + 1, lambda: [].nope]
print([classify(c) for c in cases])
try:
    raise LookupError("base")
except KeyError:
    print("wrong")
except LookupError as e:
    print("right", e)
