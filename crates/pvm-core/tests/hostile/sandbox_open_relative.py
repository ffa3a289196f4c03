# expect: SandboxError
# Relative paths are outside /tmp.
with open("../x", "w") as f:
    f.write("escape")
