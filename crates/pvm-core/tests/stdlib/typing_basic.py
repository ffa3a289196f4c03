from typing import Any, Optional, Union, List, Dict, Tuple, Callable, TypeVar, Generic, NamedTuple, TypedDict, cast, TYPE_CHECKING
import typing

T = TypeVar("T")

def first(xs: List[T]) -> Optional[T]:
    return xs[0] if xs else None

print(first([3, 4]), first([]), cast(int, "x"), TYPE_CHECKING)

class Box(Generic[T]):
    def __init__(self, v: T):
        self.v = v

print(Box[int](5).v, Box("s").v)

class Pt(NamedTuple):
    x: int
    y: int = 0

print(Pt(1), Pt(1, 2)._asdict(), Pt._fields)

class Movie(TypedDict):
    title: str
    year: int

m: Movie = {"title": "x", "year": 1}
print(m, Movie(title="y", year=2))

def f(a: int, b: "str" = "x") -> Dict[str, Any]:
    return {b: a}

print(f(1))
x: Union[int, str] = 3
cb: Callable[[int], int] = lambda n: n + 1
print(x, cb(1), Tuple is not None)
