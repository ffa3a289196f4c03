# Views reflect later changes; views in comparisons and as iterables for constructors.
d = dict.fromkeys("abc", 0)
ks = d.keys()
vs = d.values()
d.update(d=1, a=5)
print(list(ks), list(vs), len(ks), list(d.items()))
print(set(ks) == {"a", "b", "c", "d"}, sorted(ks - {"a"}), ks == {"a", "b", "c", "d"})
print(list(zip(d.keys(), d.values())) == list(d.items()), dict(d.items()) == d, list(map(str.upper, ks)))
print(repr({}.keys()), repr({"x": 1}.values()), repr({"x": 1}.items()))
