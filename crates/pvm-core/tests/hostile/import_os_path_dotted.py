# expect: ImportError
import os.path
print(os.path.join("a", "b"))
