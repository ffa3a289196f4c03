# repr of dicts, recursive dicts and dict equality.
d = {"s": "x'y", 1: [1, 2], (1,): {"n": None}, 2.5: b"b", False: True}
print(d)
print(repr({}), str({"a": {}}), {1: 2} == {1: 2.0}, {1: 2, 3: 4} == {3: 4, 1: 2})
r = {}
r["self"] = r
print(r)
print(dict(a=1) == {"a": 1}, len({i: i for i in range(100)}))
