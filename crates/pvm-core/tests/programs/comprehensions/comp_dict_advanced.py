# Dict comprehension corner cases: duplicate keys, conditional values, nested.
print({k % 3: k for k in range(10)})
print({w: (len(w) if len(w) > 3 else None) for w in "a bb cccc ddddd".split()})
inv = {"a": [1, 2], "b": [2, 3]}
print({v: sorted(k for k in inv if v in inv[k]) for vs in inv.values() for v in vs})
print({(x, y): x ** y for x in range(1, 3) for y in range(3)})
print(dict(sorted({"z": 1, "a": 2}.items())))
