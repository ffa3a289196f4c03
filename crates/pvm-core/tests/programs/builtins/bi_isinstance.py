# isinstance and issubclass with tuples and inheritance.
class A: pass
class B(A): pass
class C: pass
b = B()
print(isinstance(b, A), isinstance(b, B), isinstance(b, C), isinstance(b, (C, A)), isinstance(b, (C, (int, B))), isinstance(b, object))
print(issubclass(B, A), issubclass(A, B), issubclass(B, (C, A)), issubclass(bool, int), issubclass(int, object), issubclass(A, A))
print(isinstance(True, int), isinstance(1, bool), isinstance(1.0, int), isinstance("s", str), isinstance(b"", bytes), isinstance(None, type(None)))
print(isinstance([], (list, tuple)), isinstance((), list), isinstance({}, dict), isinstance(set(), frozenset), isinstance(frozenset(), frozenset))
print(isinstance(int, type), isinstance(A, type), isinstance(type, type), isinstance(len, type))
try:
    isinstance(1, 2)
except TypeError as e:
    print("TypeError", e)
try:
    issubclass(1, int)
except TypeError as e:
    print("TypeError", e)
