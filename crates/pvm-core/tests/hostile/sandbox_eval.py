# expect: SandboxError
print("before")
print(eval("1 + 1"))
