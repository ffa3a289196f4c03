# expect: ImportError
from os import path
print(path.exists("/etc/passwd"))
