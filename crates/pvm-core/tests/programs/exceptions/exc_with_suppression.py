# with-statement exception handling: suppression, re-raise, exit arguments.
class Suppress:
    def __init__(self, *types):
        self.types = types
    def __enter__(self):
        return self
    def __exit__(self, et, ev, tb):
        if et is not None and issubclass(et, self.types):
            print("suppressed", et.__name__, ev)
            return True
        return False
with Suppress(KeyError):
    {}["missing"]
print("continued")
with Suppress(KeyError, IndexError):
    [][0]
try:
    with Suppress(KeyError):
        raise ValueError("not suppressed")
except ValueError as e:
    print("escaped", e)
class Transform:
    def __enter__(self):
        return self
    def __exit__(self, et, ev, tb):
        if et is ZeroDivisionError:
            raise ArithmeticError("converted") from ev
try:
    with Transform():
        1 / 0
except ArithmeticError as e:
    print(type(e).__name__, e, type(e.__cause__).__name__)
