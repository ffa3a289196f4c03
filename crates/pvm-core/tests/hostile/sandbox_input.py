# expect: SandboxError
name = input("name? ")
print(name)
