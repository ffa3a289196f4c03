# Many integer keys, negative and big keys, order preserved.
d = {}
for i in range(-50, 50, 7):
    d[i * 1000003] = i
d[2 ** 100] = "big"
d[-(2 ** 64)] = "neg"
print(list(d)[:5], d[2 ** 100], d[-(2 ** 64)], len(d))
print(sum(v for v in d.values() if isinstance(v, int)))
for k in list(d)[:5]:
    del d[k]
print(list(d.values())[:5], len(d))
