# Annotations using `|` are evaluated to union objects (not kept as source text).
class Node:
    pass


def first(items: list, default: int | None = None) -> int | None:
    return items[0] if items else default


def link(a: Node | None, *rest: int | float, **kw: dict | None) -> "Node | None":
    return a


print(first.__annotations__)
print(link.__annotations__)
print(type(first.__annotations__["default"]).__name__, first.__annotations__["return"].__args__)
print(first.__annotations__["default"] == (None | int), link.__annotations__["return"])


class Record:
    ident: int
    label: str | None = None
    parent: Node | None
    weight: int | float = 1


print(Record.__annotations__)
print([isinstance(v, t) for v, t in [(3, Record.__annotations__["weight"]), (None, Record.__annotations__["label"])]])

total: int | float = 0
print(__annotations__)


def check(value, annotation):
    return isinstance(value, annotation)


ann = first.__annotations__
print(check(5, ann["default"]), check(None, ann["default"]), check("5", ann["default"]))
