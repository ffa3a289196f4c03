# expect: ImportError
# sys would give _getframe, modules, exit...
import sys
print(sys._getframe())
