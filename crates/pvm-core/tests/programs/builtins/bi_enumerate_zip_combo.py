# Combinations of iteration builtins.
names = ["ann", "bob", "cyd"]
scores = [88, 92, 75]
for rank, (name, score) in enumerate(sorted(zip(names, scores), key=lambda p: -p[1]), 1):
    print(rank, name, score)
print(dict(map(lambda p: (p[0], p[1] // 10), zip(names, scores))))
print(list(filter(lambda p: p[1] > 80, zip(names, scores))))
print(max(zip(scores, names)), min(zip(scores, names))[1], sum(s for _, s in zip(names, scores)))
print(list(map(sum, zip([1, 2], [10, 20], [100, 200]))))
print(sorted(enumerate("cab"), key=lambda p: p[1]))
