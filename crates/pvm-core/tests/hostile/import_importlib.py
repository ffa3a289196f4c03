# expect: ImportError
import importlib
os = importlib.import_module("os")
