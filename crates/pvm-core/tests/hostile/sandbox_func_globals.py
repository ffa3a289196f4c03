# expect: SandboxError
def f():
    return 1
print(f.__globals__["__name__"])
