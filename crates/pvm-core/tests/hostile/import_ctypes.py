# expect: ImportError
import ctypes
print(ctypes.sizeof(ctypes.c_int))
