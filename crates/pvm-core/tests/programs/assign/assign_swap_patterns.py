# Swaps and rotations via tuple assignment, including through indices.
a = [5, 3, 8, 1]
for i in range(len(a)):
    for j in range(len(a) - 1 - i):
        if a[j] > a[j + 1]:
            a[j], a[j + 1] = a[j + 1], a[j]
print(a)
m = [[1, 2], [3, 4]]
m[0][1], m[1][0] = m[1][0], m[0][1]
print(m)
x, y, z = 1, 2, 3
x, y, z = y, z, x
print(x, y, z)
d = {"a": 1, "b": 2}
d["a"], d["b"] = d["b"], d["a"]
print(d)
