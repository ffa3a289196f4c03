# expect: ImportError
import builtins
builtins.print = lambda *a, **k: None
