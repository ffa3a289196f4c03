# Ranges with negative steps, membership and index on them.
for r in [range(10, -10, -3), range(-1, -20, -4), range(5, 5, -1), range(0, -1, -1)]:
    print(r, list(r), len(r), [x in r for x in (10, 7, -8, -9, 0, -1)])
r = range(100, 0, -7)
print(r.index(93), r[3], r[-2], r[2:6], list(r[::5]), r.count(2))
try:
    r.index(5)
except ValueError as e:
    print("ValueError", e)
