# sum with start, abs, all/any.
print(sum([1, 2, 3]), sum([1, 2, 3], 10), sum([0.5, 0.25]), sum([[1], [2, 3]], []), sum(((1,), (2,)), ()), sum([], 7))
try:
    sum(["a", "b"], "")
except TypeError as e:
    print("TypeError", e)
print(abs(-5), abs(5), abs(-2.5), abs(0), abs(-0.0), abs(True), abs(-(10 ** 30)))
print(all([1, 2, 3]), all([1, 0]), all([]), any([0, 0]), any([0, 1]), any([]), all("abc"), any(x > 5 for x in range(10)))
def g():
    yield 1
    yield 0
    print("should not be reached")
    yield 1
print(all(g()))
