# PEP 604 union objects: repr, flattening, dedup, equality, hashing, __args__, type().
class A:
    pass


class B(A):
    pass


class Outer:
    class Inner:
        pass


u = int | str
print(u, repr(u), str(u), f"{u}", int | None, None | int)
print(int | int, (int | str) | float, int | (str | float), (int | str) | (str | bytes))
print(A | B, B | None, Outer.Inner | int, int | A | None, type | None, type(None) | int)
print(int | u, u | int, u | None, None | u, u | u)
print(list | dict | tuple | bytes | bytearray | range | slice)

# equality ignores order and duplicates; a one-member "union" is the class itself
print(u == (str | int), (int | str) == (int | str | int), u != (int | float))
print(u == int, u == 3, u == (int, str), (int | int) is int, (None | None.__class__) is type(None))
print((int | None) == (None | int), (A | B) == (B | A), (A | B) == (A | int))

# hash consistent with ==: usable as dict keys and set members
print(hash(u) == hash(str | int), hash(int | None) == hash(None | int))
d = {u: "text-or-number", int | None: "optional"}
print(d[str | int], d[None | int], len({int | str, str | int, int | None, None | int}))
print({int | str: 1, str | int: 2})

# __args__ keeps first-appearance order, None becomes NoneType
print(u.__args__, (int | None).__args__, (None | int | str).__args__)
print((A | B).__args__[0] is A, (A | B | A).__args__ == (A, B), len((int | str | float).__args__))
print((int | str).__parameters__)

# the type of a union
print(type(u), type(u).__name__, type(int | None) is type(u), isinstance(u, type))
print(bool(u), type(type(u) | None).__name__, type(u) | int)

# augmented assignment builds a union too
t = int
t |= str
t |= None
print(t, t.__args__)
