# Default arguments, including the mutable-default pitfall.
def greet(name, greeting="Hello", punct="!"):
    return f"{greeting}, {name}{punct}"
print(greet("Ada"), greet("Bob", "Hi"), greet("Cy", punct="?"), greet(punct=".", name="Di"))
def append(x, acc=[]):
    acc.append(x)
    return acc
print(append(1), append(2), append(3, []))
def safe_append(x, acc=None):
    if acc is None:
        acc = []
    acc.append(x)
    return acc
print(safe_append(1), safe_append(2))
n = 10
def late(v=n):
    return v
n = 20
print(late())
print(greet.__defaults__, greet.__name__)
