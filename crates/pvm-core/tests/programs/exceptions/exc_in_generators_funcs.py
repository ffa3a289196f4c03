# Exceptions crossing function and generator boundaries.
def gen():
    try:
        yield 1
        yield 1 / 0
    except ZeroDivisionError:
        yield "handled inside"
    yield "after"
print(list(gen()))
def deep(n):
    if n == 0:
        raise LookupError("bottom")
    return deep(n - 1)
try:
    deep(20)
except LookupError as e:
    print("caught from depth", e)
def cleanup_order():
    log = []
    def inner():
        try:
            raise ValueError("x")
        finally:
            log.append("inner-finally")
    try:
        inner()
    except ValueError:
        log.append("outer-except")
    finally:
        log.append("outer-finally")
    return log
print(cleanup_order())
