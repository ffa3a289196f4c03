# A small expression evaluator using structural pattern matching on tuples.
def ev(e, env):
    match e:
        case ("num", n):
            return n
        case ("var", name):
            return env[name]
        case ("add", a, b):
            return ev(a, env) + ev(b, env)
        case ("mul", a, b):
            return ev(a, env) * ev(b, env)
        case ("neg", a):
            return -ev(a, env)
        case ("let", name, val, body):
            return ev(body, {**env, name: ev(val, env)})
        case ("if", c, t, f):
            return ev(t, env) if ev(c, env) else ev(f, env)
        case _:
            raise ValueError(f"bad expr {e!r}")
prog = ("let", "x", ("num", 5), ("add", ("mul", ("var", "x"), ("var", "x")), ("neg", ("num", 3))))
print(ev(prog, {}))
print(ev(("if", ("var", "flag"), ("num", 1), ("num", 2)), {"flag": 0}))
try:
    ev(("pow", 1, 2), {})
except ValueError as e:
    print("ValueError", e)
