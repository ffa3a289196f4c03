# The dict method set.
d = {"x": 1, "y": 2, "z": 3}
print(d.get("x"), d.get("w"), d.get("w", 0), d.setdefault("x", 9), d.setdefault("w", 4), d)
print(d.pop("w"), d.pop("nope", "dflt"), d)
try:
    d.pop("nope")
except KeyError as e:
    print("KeyError", e)
print(d.popitem(), d)
d.update({"a": 5}, b=6)
d.update([("c", 7)])
print(d)
c = d.copy()
c["x"] = 100
print(d["x"], c["x"])
print(dict.fromkeys("abc"), dict.fromkeys(["p", "q"], 0), dict.fromkeys(range(3), []))
c.clear()
print(c, len(c))
try:
    {}.popitem()
except KeyError as e:
    print("KeyError", e)
print(sorted(d), sorted(d.items(), key=lambda kv: kv[1], reverse=True))
print(list(reversed(d)), list(reversed(d.items())))
