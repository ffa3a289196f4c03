# break/continue affect only the innermost loop.
for i in range(4):
    for j in range(4):
        if j == 2:
            break
        if (i + j) % 2:
            continue
        print("pair", i, j)
    else:
        print("inner else", i)
    if i == 2:
        continue
    print("end outer", i)
res = []
for i in range(3):
    k = 0
    while True:
        k += 1
        if k > i:
            break
        res.append((i, k))
print(res)
