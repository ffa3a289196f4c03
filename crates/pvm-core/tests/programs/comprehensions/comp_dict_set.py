# Dict and set comprehensions.
words = ["alpha", "beta", "gamma", "delta", "alpha"]
print({w: len(w) for w in words})
print({i: w for i, w in enumerate(words)})
print(sorted({w[0] for w in words}), sorted({len(w) for w in words}))
print({k: v for k, v in zip("abc", range(3)) if v})
print({x: {y: x * y for y in range(2)} for x in range(3)})
inverse = {v: k for k, v in {"a": 1, "b": 2, "c": 1}.items()}
print(inverse)
