# expect: SandboxError
# __import__ is a dynamic import.
os = __import__("os")
print(os.getcwd())
