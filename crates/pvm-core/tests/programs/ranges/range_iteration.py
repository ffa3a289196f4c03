# Iterating ranges in loops, reversed ranges, nested ranges.
total = 0
for i in range(1, 101):
    total += i
print(total)
print(list(reversed(range(5))), list(reversed(range(1, 10, 3))), list(reversed(range(0))))
for i in range(3):
    for j in range(i, 3):
        print((i, j), end=" ")
print()
it = iter(range(3))
print(next(it), next(it), next(it), next(it, "done"))
print([x for x in range(20, 0, -3)], list(map(str, range(4))), list(enumerate(range(10, 13))))
print(list(zip(range(3), range(10, 100, 10))), dict(zip(range(3), "abc")))
