# try/finally inside loops with break/continue/return.
def f():
    out = []
    for i in range(5):
        try:
            if i == 1:
                continue
            if i == 3:
                break
            out.append(i)
        finally:
            out.append("f%d" % i)
    return out
print(f())
def g():
    for i in range(3):
        try:
            return i
        finally:
            print("finally", i)
print(g())
def h():
    i = 0
    while True:
        try:
            i += 1
            if i > 3:
                return "done %d" % i
        finally:
            if i == 2:
                print("two")
print(h())
