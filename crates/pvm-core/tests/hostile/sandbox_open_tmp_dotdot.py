# expect: SandboxError
# Path traversal out of /tmp.
with open("/tmp/../etc/passwd") as f:
    print(f.read())
