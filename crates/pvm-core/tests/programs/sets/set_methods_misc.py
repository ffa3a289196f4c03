# copy, equality of different construction, min/max/sum on sets, frozenset of frozensets.
s = set(range(5))
t = s.copy()
t.add(99)
print(len(s), len(t), 99 in s, max(t), min(t), sum(s), sorted(s, reverse=True))
print(set("abc") == set("cba"), frozenset("ab") == frozenset("ba"), set() == frozenset())
print(any(x > 3 for x in s), all(x >= 0 for x in s), sorted(map(lambda x: x * 2, s)))
fs = frozenset([frozenset([1]), frozenset([1, 2])])
print(len(fs), sorted(len(x) for x in fs), frozenset([1]) in fs)
