# Insertion order survives updates; reinsertion after deletion moves to end.
d = {}
for ch in "hello world":
    d[ch] = d.get(ch, 0) + 1
print(d)
print(list(d.items())[:3])
d.pop("l")
d["l"] = 0
print(list(d))
d["h"] = 99
print(list(d)[0], d["h"])
e = dict.fromkeys("zyxwv", 1)
print(list(e), list(e) == sorted(e, reverse=True))
f = {3: "c", 1: "a", 2: "b"}
print(f, dict(sorted(f.items())), {k: f[k] for k in sorted(f, reverse=True)})
