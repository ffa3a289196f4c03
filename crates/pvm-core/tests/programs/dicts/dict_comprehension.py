# Dict comprehensions and derived dicts.
sq = {n: n * n for n in range(6)}
print(sq)
print({v: k for k, v in sq.items()})
print({k: v for k, v in sq.items() if v % 2 == 0})
words = "apple avocado banana blueberry cherry apricot".split()
by_letter = {}
for w in words:
    by_letter.setdefault(w[0], []).append(w)
print(by_letter)
print({k: len(v) for k, v in by_letter.items()})
print({(i, j): i * j for i in range(2) for j in range(2)})
print({c: "abc".index(c) for c in "cab"})
