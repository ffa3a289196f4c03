# A loop-driven finite state machine over a string (number recognizer).
def is_number(s):
    state = "start"
    for ch in s:
        if state == "start":
            if ch in "+-":
                state = "sign"
            elif ch.isdigit():
                state = "int"
            elif ch == ".":
                state = "dot"
            else:
                return False
        elif state in ("sign",):
            if ch.isdigit():
                state = "int"
            elif ch == ".":
                state = "dot"
            else:
                return False
        elif state == "int":
            if ch.isdigit():
                continue
            elif ch == ".":
                state = "frac"
            elif ch in "eE":
                state = "exp"
            else:
                return False
        elif state in ("dot", "frac"):
            if ch.isdigit():
                state = "frac"
            elif ch in "eE" and state == "frac":
                state = "exp"
            else:
                return False
        elif state in ("exp", "expsign"):
            if ch.isdigit():
                state = "expint"
            elif ch in "+-" and state == "exp":
                state = "expsign"
            else:
                return False
        elif state == "expint":
            if not ch.isdigit():
                return False
    return state in ("int", "frac", "expint")
for s in ["0", "-12", "+3.5", ".5", "5.", "1e10", "1e", "e5", "1.2e-3", "--1", "abc", "", "12a", "3.14E+2"]:
    print(repr(s), is_number(s))
