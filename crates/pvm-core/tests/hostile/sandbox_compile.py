# expect: SandboxError
c = compile("print('hi')", "<string>", "exec")
print(c)
