# Many deletions and reinsertions keep order consistent.
d = {i: i * i for i in range(20)}
for i in range(0, 20, 3):
    del d[i]
print(list(d))
for i in range(0, 20, 6):
    d[i] = -i
print(list(d.items())[-4:])
while len(d) > 5:
    d.popitem()
print(d)
keys = list(d)
for k in keys:
    d[str(k)] = d.pop(k)
print(d)
