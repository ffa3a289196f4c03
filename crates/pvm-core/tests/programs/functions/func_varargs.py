# *args and **kwargs, argument unpacking at call sites.
def f(*args, **kwargs):
    return args, kwargs
print(f(), f(1, 2), f(a=1), f(1, *[2, 3], x=4, **{"y": 5}))
def g(a, b, c=0, *rest, d, **kw):
    return a, b, c, rest, d, kw
print(g(1, 2, d=3), g(1, 2, 3, 4, 5, d=6, e=7), g(*range(5), **{"d": 0, "z": 1}))
try:
    f(**{"a": 1}, a=2)
except TypeError as e:
    print("TypeError", "multiple values" in str(e))
def total(*nums, start=0):
    return sum(nums, start)
print(total(1, 2, 3), total(start=10), total(*range(5), start=100))
args = (1, 2)
kwargs = {"sep": "-", "end": "!\n"}
print(*args, **kwargs)
print(*"abc", sep="|")
