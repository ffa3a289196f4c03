# expect: SandboxError
# Replacing a builtin through __builtins__.
__builtins__.len = lambda x: 0
print(len([1, 2, 3]))
