# isinstance / issubclass with PEP 604 unions, user __or__/__ror__ precedence, error messages.
class Animal:
    pass


class Dog(Animal):
    pass


class Cat(Animal):
    pass


Pet = Dog | Cat
print(isinstance(3, int | str), isinstance("x", int | str), isinstance(2.5, int | str))
print(isinstance(None, int | None), isinstance(True, str | int), isinstance([], list | None))
print(isinstance(Dog(), Pet), isinstance(Animal(), Pet), isinstance(Cat(), Animal | None))
print(isinstance(1.0, (str, bool | float)), isinstance(b"", (int | str, bytes)))
print(issubclass(bool, int | str), issubclass(Dog, Animal | int), issubclass(float, int | str))
print(issubclass(Cat, Pet), issubclass(Animal, Pet), issubclass(type(None), int | None))
print(issubclass(Dog, (str, Cat | Dog)))


def kind(x):
    if isinstance(x, int | float):
        return "number"
    if isinstance(x, str | bytes):
        return "text"
    if isinstance(x, list | tuple | None):
        return "seq-or-none"
    return "other"


print([kind(v) for v in [1, 2.0, True, "s", b"b", [], (), None, {}]])


# the operands' own methods win over the union
class Pipe:
    def __init__(self, name):
        self.name = name

    def __or__(self, other):
        return f"{self.name}.__or__({other.__name__})"

    def __ror__(self, other):
        return f"{self.name}.__ror__({getattr(other, '__name__', other)})"


print(int | Pipe("p"), Pipe("q") | str, None | Pipe("r"))


class Meta(type):
    def __or__(cls, other):
        return f"Meta.__or__({cls.__name__})"

    def __ror__(cls, other):
        return f"Meta.__ror__({cls.__name__})"


class M(metaclass=Meta):
    pass


print(M | int, int | M, None | M)

for thunk in [
    lambda: int | 3,
    lambda: 3 | int,
    lambda: None | None,
    lambda: (int | str) | "bytes",
    lambda: (int | str) + 1,
    lambda: issubclass(3, int | str),
    lambda: isinstance(3, (int | str, 4)),
]:
    try:
        print(thunk())
    except TypeError as e:
        print("TypeError:", e)
