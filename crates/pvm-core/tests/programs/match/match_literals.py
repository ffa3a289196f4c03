# Literal patterns, wildcard, or-patterns.
def http(status):
    match status:
        case 200:
            return "ok"
        case 301 | 302 | 307:
            return "redirect"
        case 404:
            return "not found"
        case 500 | 502 | 503:
            return "server error"
        case _:
            return "other"
print([http(s) for s in [200, 302, 404, 503, 418]])
def kind(v):
    match v:
        case None:
            return "none"
        case True:
            return "true"
        case False:
            return "false"
        case "":
            return "empty str"
        case 0:
            return "zero"
        case 1.5:
            return "one and a half"
        case -1:
            return "minus one"
        case b"x":
            return "bytes x"
        case _:
            return "something else"
print([kind(v) for v in [None, True, False, "", 0, 0.0, 1.5, -1, b"x", 1, "s"]])
