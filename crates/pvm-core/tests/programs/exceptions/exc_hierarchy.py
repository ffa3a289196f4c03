# Built-in exception hierarchy checks.
pairs = [(ZeroDivisionError, ArithmeticError), (OverflowError, ArithmeticError), (KeyError, LookupError), (IndexError, LookupError),
         (LookupError, Exception), (ValueError, Exception), (UnicodeDecodeError, UnicodeError), (UnicodeError, ValueError),
         (FileNotFoundError, OSError), (RecursionError, RuntimeError), (NotImplementedError, RuntimeError), (StopIteration, Exception),
         (GeneratorExit, Exception), (GeneratorExit, BaseException), (KeyboardInterrupt, Exception), (Exception, BaseException),
         (TypeError, Exception), (AttributeError, Exception), (NameError, Exception), (UnboundLocalError, NameError),
         (ModuleNotFoundError, ImportError), (AssertionError, Exception), (MemoryError, Exception), (IndentationError, SyntaxError),
         (bool, int), (StopAsyncIteration, Exception), (SystemExit, Exception), (FloatingPointError, ArithmeticError), (TimeoutError, OSError)]
for sub, sup in pairs:
    print(sub.__name__, sup.__name__, issubclass(sub, sup))
print([c.__name__ for c in KeyError.__mro__])
print([c.__name__ for c in UnicodeDecodeError.__mro__])
print(issubclass(ValueError, (TypeError, Exception)), isinstance(KeyError("x"), LookupError))
