# Annotated assignments.
x: int = 5
y: "list[str]"
name: str = "ada"
print(x, name)
try:
    print(y)
except NameError as e:
    print("NameError", e)
def f(a: int, b: str = "s") -> tuple:
    c: float = 1.5
    return a, b, c
print(f(1))
class P:
    count: int = 0
    label: str
print(P.count, hasattr(P, "label"))
