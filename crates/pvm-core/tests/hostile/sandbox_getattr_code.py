# expect: SandboxError
# The same via getattr with a computed name.
def target():
    return 1
name = "__" + "code" + "__"
print(getattr(target, name))
