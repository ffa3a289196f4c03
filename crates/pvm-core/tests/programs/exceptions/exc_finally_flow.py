# finally with break/continue/return and exceptions in handlers.
def loop():
    out = []
    for i in range(4):
        try:
            if i == 0:
                raise ValueError
            if i == 2:
                continue
            out.append(i)
        except ValueError:
            out.append("err")
        finally:
            out.append(f"fin{i}")
    return out
print(loop())
def exc_in_finally():
    try:
        raise KeyError("original")
    finally:
        raise ValueError("from finally")
try:
    exc_in_finally()
except ValueError as e:
    print(e, type(e.__context__).__name__)
def counter():
    n = 0
    while True:
        try:
            n += 1
            if n == 3:
                break
        finally:
            print("fin", n)
    return n
print(counter())
