# Iterating over tuples, zip and enumerate producing tuples.
colors = ("red", "green", "blue")
for idx, c in enumerate(colors, start=1):
    print(idx, c)
for a, b in zip(colors, colors[1:]):
    print(a, "->", b)
print(tuple(reversed(colors)), tuple(sorted(colors)), tuple(c[0] for c in colors))
print(sum((1, 2, 3)), max(("b", "a")), any(()), all(()))
m = tuple(tuple(i * j for j in range(3)) for i in range(3))
print(m)
