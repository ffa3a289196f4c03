# Complex conditions and multiple for-clauses with dependent ranges.
print([(i, j) for i in range(5) if i % 2 for j in range(i) if (i + j) % 3 == 0])
print([x for x in range(50) if x % 2 == 0 and x % 3 == 0 or x == 7])
print([w for w in "one two three four five six".split() if len(w) > 3 and "e" in w])
print(sum(1 for a in range(10) for b in range(10) if a < b))
print(["".join(p) for p in [(a, b) for a in "xy" for b in "12"]])
