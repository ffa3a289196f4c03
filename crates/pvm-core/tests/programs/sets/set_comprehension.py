# Set comprehensions and dedup idioms.
words = "the cat and the hat sat on the mat".split()
print(sorted({w for w in words}), len({len(w) for w in words}), sorted({w[0] for w in words}))
print(sorted({x % 7 for x in range(100)}), sorted({(x, y) for x in range(3) for y in range(x)}))
seen = set()
out = []
for w in words:
    if w not in seen:
        seen.add(w)
        out.append(w)
print(out)
print(len(set(range(1000)) & set(range(500, 1500))))
