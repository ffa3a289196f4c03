# expect: SandboxError
with open("/etc/passwd") as f:
    print(f.read())
