# len, range, enumerate.
print(len([]), len("héllo"), len(b"ab"), len({1: 2}), len(range(0, 10, 3)), len((1,)), len({1, 2, 2}))
print(list(enumerate("abc")), list(enumerate("abc", 10)), list(enumerate([], 5)), list(enumerate(range(3), start=-1)))
e = enumerate(["x", "y"])
print(next(e), next(e), next(e, "end"))
class L:
    def __len__(self):
        return 7
print(len(L()))
class BadLen:
    def __len__(self):
        return -1
try:
    len(BadLen())
except ValueError as e:
    print("ValueError", e)
