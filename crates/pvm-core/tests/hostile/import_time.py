# expect: ImportError
from time import time
print(time())
