# Equality is order-insensitive; copies are shallow.
a = {"x": [1], "y": 2}
b = {"y": 2, "x": [1]}
print(a == b, list(a) == list(b))
c = a.copy()
c["x"].append(2)
c["z"] = 3
print(a, c)
d = dict(a)
d["y"] = 20
print(a["y"], d["y"], {k: v for k, v in a.items()} == a)
nested = {"k": {"n": 1}}
shallow = dict(nested)
shallow["k"]["n"] = 99
print(nested)
