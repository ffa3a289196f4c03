# expect: SandboxError
# Walk from a literal to object, then down to every class.
classes = ().__class__.__bases__[0].__subclasses__()
for c in classes:
    if c.__name__ == "FileIO":
        print(c)
