# expect: SandboxError
# Reaching a function's code object.
f = lambda: 0
print(f.__code__)
