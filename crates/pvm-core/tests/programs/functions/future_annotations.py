"""PEP 563: with `from __future__ import annotations` nothing is evaluated at def time.

(Annotations with calls or binary operators are checked by the unit tests of src/unparse.rs:
the corpus generator's int-limit emulation rewrites those nodes.)"""
from __future__ import annotations


def f(a: Undefined[int], b: Optional[dict[str,list[int]]] = None, *args: "quoted", **kw: -1) -> List[ Tuple[()] ]:
    return a


print(f.__annotations__)
print(f(5))


class Node:
    value: int
    children: list[Node] = []
    parent: Optional[Node]

    def add(self, child: Node, *, at: int = -1) -> Node:
        return self

    def where(self, x: a if b else c, y: not -x, z: (a, b) if c else [d]) -> not (a == b):
        pass


print(Node.__annotations__)
print(Node.add.__annotations__)
print(Node.where.__annotations__)


def more(p: x[1:2, ::3], q: x.y[z:w], r: 1 .real, s: 0x10, t: 1.5e3,
         u: b"\x00", v: {"k": 1, **m}, w: ..., x: Callable[[int, str], bool], y: (1,), z: x[(1, 2)]):
    pass


print(more.__annotations__)
limit: Final[int] = 10
print(__annotations__, limit)
