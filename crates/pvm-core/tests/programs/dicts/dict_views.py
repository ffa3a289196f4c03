# keys/values/items views are live and support set operations on keys/items.
d = {"a": 1, "b": 2, "c": 3}
k, v, it = d.keys(), d.values(), d.items()
print(list(k), list(v), list(it), len(k), "a" in k, 2 in v, ("c", 3) in it, ("c", 4) in it)
d["d"] = 4
del d["a"]
print(list(k), list(v), list(it))
print(sorted(k & {"b", "x"}), sorted(k | {"z"}), sorted(k - {"b"}), sorted(k ^ {"b", "q"}))
print(sorted(it & {("b", 2), ("c", 0)}), k == {"b", "c", "d"}, k <= {"b", "c", "d", "e"})
print(k.isdisjoint({"x"}), list(reversed(k)), list(reversed(v)))
try:
    for key in d:
        d[key + "x"] = 0
except RuntimeError as e:
    print("RuntimeError", e)
e = {}
print(list(e.keys()), list(e.items()), bool(e.values()))
