# expect: SandboxError
# globals() modification is forbidden.
g = globals()
g["injected"] = 1
print(injected)
