# Construction, access, insertion order, deletion.
d = {"b": 1, "a": 2}
d["c"] = 3
d["b"] = 10
print(d, len(d), d["a"], list(d))
del d["a"]
d["a"] = 5
print(d)
print(dict(), dict(x=1, y=2), dict([("k", 1), ("j", 2)]), dict({"a": 1}, b=2), dict(zip("abc", range(3))))
print({1: "int", 1.0: "float", True: "bool"}, {(1, 2): "t", None: 0, "s": b"x"})
try:
    d["zz"]
except KeyError as e:
    print("KeyError", e, repr(e), e.args)
try:
    del d["zz"]
except KeyError as e:
    print("KeyError", e)
try:
    {[1]: 2}
except TypeError as e:
    print("TypeError", e)
print("a" in d, "q" not in d, 10 in d.values(), d == {"c": 3, "b": 10, "a": 5}, d != {})
