# sorted with key/reverse, reversed on sequences and custom objects.
data = [("b", 2), ("a", 3), ("c", 1), ("a", 1)]
print(sorted(data), sorted(data, key=lambda t: t[1]), sorted(data, key=lambda t: t[1], reverse=True))
print(sorted("hello"), sorted({3: 0, 1: 0}), sorted((3, 1, 2), reverse=True), sorted([]), sorted(range(5), key=lambda x: -x))
print(list(reversed([1, 2, 3])), list(reversed("abc")), list(reversed(range(3))), list(reversed((1, 2))), list(reversed({"a": 1, "b": 2})))
class R:
    def __len__(self):
        return 3
    def __getitem__(self, i):
        return i * 100
print(list(reversed(R())))
try:
    reversed({1, 2})
except TypeError as e:
    print("TypeError", e)
try:
    sorted([3, 1], key=5)
except TypeError as e:
    print("TypeError", e)
