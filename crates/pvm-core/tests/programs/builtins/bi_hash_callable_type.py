# hash of ints/tuples, callable, type().
print(hash(0), hash(1), hash(-1), hash(2**62), hash((1, 2)), hash(()), hash((None,)) == hash((None,)), hash(True))
print(callable(len), callable(lambda: 1), callable(1), callable("s"), callable(int), callable(object()))
class K:
    def __call__(self):
        return 1
print(callable(K), callable(K()))
print(type(1).__name__, type("").__name__, type([]).__name__, type(None).__name__, type(len).__name__ if False else "-", type(K).__name__, type(type).__name__)
print(type(1) is int, type(True) is bool, type(1) == int, type([]) is list)
print(type(1), type("a"), type([]), type({}), type(()), type(1.5), type(None), type(True), type(b""))
NewT = type("NewT", (object,), {"x": 5, "get": lambda self: self.x * 2})
n = NewT()
print(NewT.__name__, n.x, n.get(), isinstance(n, NewT))
