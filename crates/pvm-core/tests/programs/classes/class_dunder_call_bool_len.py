# __call__, __bool__ and __len__ truthiness.
class Adder:
    def __init__(self, n):
        self.n = n
    def __call__(self, x, y=0):
        return self.n + x + y
add5 = Adder(5)
print(add5(1), add5(1, y=2), callable(add5), callable(Adder), list(map(add5, [1, 2])))
class Empty:
    def __len__(self):
        return 0
class Full:
    def __len__(self):
        return 3
class Explicit:
    def __bool__(self):
        return False
    def __len__(self):
        return 10
class Plain:
    pass
for o in [Empty(), Full(), Explicit(), Plain()]:
    print(type(o).__name__, bool(o), "yes" if o else "no")
class BadBool:
    def __bool__(self):
        return 1
try:
    bool(BadBool())
except TypeError as e:
    print("TypeError", e)
