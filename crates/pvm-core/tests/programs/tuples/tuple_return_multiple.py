# Functions returning tuples; unpacking in loops and comprehensions.
def stats(xs):
    n = len(xs)
    mean = sum(xs) / n
    return min(xs), max(xs), mean
lo, hi, avg = stats([4, 8, 15, 16, 23, 42])
print(lo, hi, avg)
results = [stats(r) for r in ([1, 2, 3], [10, 20], [5])]
for lo, hi, avg in results:
    print(f"{lo:>3} {hi:>3} {avg:6.2f}")
def divmod_all(pairs):
    return tuple(divmod(a, b) for a, b in pairs)
print(divmod_all([(7, 2), (9, 3), (-7, 2)]))
qs, rs = zip(*divmod_all([(7, 2), (9, 3), (-7, 2)]))
print(qs, rs)
