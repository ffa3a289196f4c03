# min/max with key and default.
print(min(3, 1, 2), max(3, 1, 2), min([4, 5]), max("hello"), min("b", "a", "c"), max([1, 2], [1, 3]))
print(max(["apple", "fig", "banana"], key=len), min(["apple", "fig", "banana"], key=len), max([], default="none"), min((), default=0))
print(max([-3, 2, -5], key=abs), min([-3, 2, -5], key=abs), max({"a": 5, "b": 9}, key=lambda k: {"a": 5, "b": 9}[k]))
print(max([1, 1.0]), max([1.0, 1]), min([(1, "b"), (1, "a")]), max(x * x for x in range(-4, 3)))
print(max([3, 3, 1], key=lambda v: 0), min([2, 1, 1], key=lambda v: 0))
try:
    max()
except TypeError as e:
    print("TypeError", e)
try:
    min([], key=len)
except ValueError as e:
    print("ValueError", e)
try:
    max(1, 2, default=0)
except TypeError as e:
    print("TypeError", e)
