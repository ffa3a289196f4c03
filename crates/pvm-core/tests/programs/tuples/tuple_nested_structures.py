# Nested tuples as immutable records; sorting and grouping them.
emps = (("eng", "ann", 120), ("ops", "bob", 90), ("eng", "cat", 135), ("ops", "dan", 95), ("hr", "eve", 70))
by_dept = {}
for dept, name, sal in emps:
    by_dept.setdefault(dept, []).append((name, sal))
for d in sorted(by_dept):
    people = tuple(sorted(by_dept[d], key=lambda p: -p[1]))
    print(d, people, sum(s for _, s in people))
print(max(emps, key=lambda e: e[2]), min(emps, key=lambda e: (e[0], -e[2])))
print(tuple(e[1] for e in emps if e[0] == "eng"), len(emps), emps[1:3])
t = ((1, 2), (3, (4, 5)))
print(t[1][1][0], t[0] + t[1][1], len(t[1]), t == ((1, 2), (3, (4, 5))))
