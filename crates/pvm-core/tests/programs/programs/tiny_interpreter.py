# A tiny stack-based bytecode interpreter plus compiler for arithmetic with variables.
def compile_expr(tokens):
    out, ops = [], []
    prec = {"+": 1, "-": 1, "*": 2, "/": 2, "%": 2}
    for t in tokens:
        if t.isdigit():
            out.append(("PUSH", int(t)))
        elif t.isidentifier():
            out.append(("LOAD", t))
        elif t == "(":
            ops.append(t)
        elif t == ")":
            while ops[-1] != "(":
                out.append(("OP", ops.pop()))
            ops.pop()
        else:
            while ops and ops[-1] != "(" and prec[ops[-1]] >= prec[t]:
                out.append(("OP", ops.pop()))
            ops.append(t)
    while ops:
        out.append(("OP", ops.pop()))
    return out
def lex(s):
    toks, i = [], 0
    while i < len(s):
        if s[i].isspace():
            i += 1
        elif s[i].isalnum():
            j = i
            while j < len(s) and s[j].isalnum():
                j += 1
            toks.append(s[i:j])
            i = j
        else:
            toks.append(s[i])
            i += 1
    return toks
def run(program):
    env = {}
    steps = 0
    for line in program:
        name, expr = [p.strip() for p in line.split("=")]
        code = compile_expr(lex(expr))
        stack = []
        for op, arg in code:
            steps += 1
            if op == "PUSH":
                stack.append(arg)
            elif op == "LOAD":
                stack.append(env[arg])
            else:
                b, a = stack.pop(), stack.pop()
                stack.append({"+": a + b, "-": a - b, "*": a * b, "/": a // b if b else 0, "%": a % b if b else 0}[arg])
        env[name] = stack.pop()
        print(f"{name} = {env[name]}   code={code}")
    return env, steps
env, steps = run(["x = 2 + 3 * 4", "y = (x - 4) * (x + 4)", "z = y / 7 % 5", "w = ((1 + 2) * (3 + 4) - x) * y"])
print(env, steps)
