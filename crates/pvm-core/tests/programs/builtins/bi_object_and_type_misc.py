# object(), type checks, NotImplemented, Ellipsis, None singletons.
o = object()
print(type(o).__name__, o == o, o != object(), isinstance(o, object), bool(o))
print(NotImplemented.__class__.__name__ if hasattr(NotImplemented, "__class__") else "x", type(None).__name__, type(...).__name__)
print(None == None, None is None, bool(None), str(None), repr(None), [None] * 2)
print(int.__mro__[-1].__name__, bool.__mro__[1].__name__, issubclass(type, object), isinstance(object, type))
