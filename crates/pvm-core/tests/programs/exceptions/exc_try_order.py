# try/except/else/finally execution order.
def run(mode):
    log = []
    try:
        log.append("try")
        if mode == "raise":
            raise ValueError("v")
        if mode == "return":
            return log + ["returned"]
    except ValueError as e:
        log.append("except " + str(e))
    else:
        log.append("else")
    finally:
        log.append("finally")
    log.append("after")
    return log
for m in ["ok", "raise", "return"]:
    print(m, run(m))
def finally_overrides():
    try:
        return "try"
    finally:
        return "finally"
print(finally_overrides())
def finally_swallows():
    try:
        raise KeyError("lost")
    finally:
        return "swallowed"
print(finally_swallows())
def nested():
    try:
        try:
            raise TypeError("inner")
        finally:
            print("inner finally")
    except TypeError as e:
        print("outer caught", e)
    finally:
        print("outer finally")
nested()
