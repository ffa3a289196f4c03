# Functions and methods annotated with PEP 604 unions (`X | None`) define and run.
def first(items: list, default: int | None = None) -> int | None:
    return items[0] if items else default


def describe(x: int | str | None, *rest: int | float, **kw: dict | None) -> str:
    return f"{x!r} {rest} {sorted(kw)}"


class Counter:
    def __init__(self, start: int | None = None) -> None:
        self.n = 0 if start is None else start

    def add(self, k: int | float = 1) -> "Counter | None":
        self.n += k
        return self


print(first([]), first([], 7), first([3, 4]))
print(describe(None), describe("a", 1, 2.5, z=None, a={}))
c = Counter().add().add(2.5)
print(c.n, Counter(10).add(-3).n)
print(sorted(first.__annotations__), sorted(describe.__annotations__))
print(type(first.__annotations__["return"]).__name__ in ("str", "UnionType"))
