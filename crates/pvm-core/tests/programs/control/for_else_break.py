# for/else with break and continue, nested loops with flags.
for n in range(2, 30):
    for d in range(2, n):
        if n % d == 0:
            break
    else:
        print(n, end=" ")
print()
for x in []:
    print("nope")
else:
    print("else on empty")
found = None
for i in range(5):
    for j in range(5):
        if i * j == 6:
            found = (i, j)
            break
    if found:
        break
print(found)
for i in range(10):
    if i in (2, 4, 6):
        continue
    if i > 7:
        break
    print(i, end=",")
print()
