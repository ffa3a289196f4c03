# | and |= merging, ** unpacking, update precedence.
a = {"x": 1, "y": 2}
b = {"y": 20, "z": 30}
print(a | b, b | a, {**a, **b}, {**b, "x": 0, **a})
a |= b
print(a)
a |= [("w", 0)]
print(a)
try:
    a | [("q", 1)]
except TypeError as e:
    print("TypeError", e)
defaults = {"host": "localhost", "port": 80, "debug": False}
overrides = {"port": 8080}
cfg = defaults | overrides
print(cfg, defaults)
def f(**kw):
    return kw
print(f(**a, extra=True))
