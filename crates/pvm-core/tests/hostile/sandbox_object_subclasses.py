# expect: SandboxError
# The classic sandbox escape: enumerate every class via object.__subclasses__().
print(len(object.__subclasses__()))
