# Subclassing immutable builtins (str, int) with __new__.
class Upper(str):
    def __new__(cls, v):
        return super().__new__(cls, v.upper())
u = Upper("hello")
print(u, len(u), isinstance(u, str), u + "!", type(u).__name__)
class Pos(int):
    def __new__(cls, v):
        if v < 0:
            raise ValueError("negative")
        return super().__new__(cls, v)
print(Pos(5) + 1, type(Pos(5)).__name__)
try:
    Pos(-1)
except ValueError as e:
    print("ValueError", e)
