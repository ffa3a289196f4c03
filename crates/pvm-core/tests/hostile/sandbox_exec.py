# expect: SandboxError
code = "x = 40 + 2"
ns = {}
exec(code, ns)
print(ns["x"])
