# expect: ImportError
import os
print(os.listdir("/"))
