# Constructors of builtin types from various inputs.
print(list("abc"), list((1, 2)), list({"a": 1}), list(range(3)), list(), list(x for x in "ab"))
print(tuple([1, 2]), tuple("ab"), tuple(), tuple({"k": 1}.items()))
print(dict([(1, 2)]), dict(a=1), dict({"b": 2}, c=3), dict(zip(range(2), "ab")), dict())
print(sorted(set("aab")), sorted(frozenset([3, 1])), set(), len(set(range(5))))
print(str(123), str(1.5), str([1]), bytes([65]), bytes("é", "utf-8"), bytearray(2), bytearray(b"ab"))
print(int("ff", 16), int(2.9), float("1e3"), float(5), bool(None), bool("x"), complex if False else "c")
print(range(3), slice(1, 2), object().__class__.__name__)
try:
    dict([(1, 2, 3)])
except ValueError as e:
    print("ValueError", e)
try:
    list(5)
except TypeError as e:
    print("TypeError", e)
