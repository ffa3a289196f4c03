# Context managers: __enter__/__exit__, suppression, nesting order.
class CM:
    def __init__(self, name, suppress=False):
        self.name, self.suppress = name, suppress
    def __enter__(self):
        print("enter", self.name)
        return self.name.upper()
    def __exit__(self, et, ev, tb):
        print("exit", self.name, et.__name__ if et else None, ev)
        return self.suppress
with CM("a") as v:
    print("body", v)
with CM("outer"), CM("inner") as w:
    print("nested", w)
with CM("quiet", suppress=True):
    raise ValueError("swallowed")
print("after suppression")
try:
    with CM("loud"):
        raise KeyError("k")
except KeyError as e:
    print("caught", e)
def f():
    with CM("ret"):
        return "returned"
print(f())
for i in range(3):
    with CM(f"loop{i}"):
        if i == 1:
            continue
        if i == 2:
            break
        print("loop body", i)
