# Membership checks with sets vs lists give identical answers.
big = list(range(0, 5000, 3))
bs = set(big)
probe = list(range(0, 5000, 7))
a = [p for p in probe if p in bs]
print(len(a), a[:8], a[-3:])
words = "alpha beta gamma delta epsilon zeta eta theta iota kappa".split()
ws = frozenset(words)
print([w in ws for w in ["beta", "omega", "eta", "Eta"]], len(ws))
stop = {"the", "a", "of", "and"}
text = "the quick and the dead of a night".split()
print([w for w in text if w not in stop])
