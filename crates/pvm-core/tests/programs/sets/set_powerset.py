# Power set and combinations using sets of frozensets.
def powerset(items):
    out = [frozenset()]
    for x in items:
        out += [s | {x} for s in out]
    return out
ps = powerset("abcd")
print(len(ps), len(set(ps)))
print(sorted("".join(sorted(s)) for s in ps))
by_size = {}
for s in ps:
    by_size[len(s)] = by_size.get(len(s), 0) + 1
print(sorted(by_size.items()))
