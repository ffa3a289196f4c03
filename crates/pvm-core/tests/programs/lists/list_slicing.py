# Slice reads, slice assignment and deletion.
a = list(range(10))
print(a[2:5], a[::2], a[::-1], a[-3:], a[:-7], a[8:2:-3], a[100:], a[-100:2])
b = a[:]
b[2:5] = ["x", "y"]; print(b)
b[1:1] = [100, 200]; print(b)
b[::2] = ["E"] * len(b[::2]); print(b)
del b[1::3]; print(b)
b[:] = []; print(b)
c = list(range(8))
c[-2:] = "ab"; print(c)
del c[:2]; print(c)
c[len(c):] = [9]; print(c)
try:
    c[::2] = [1]
except ValueError as e:
    print("ValueError", e)
try:
    c[20]
except IndexError as e:
    print("IndexError", e)
try:
    c[20] = 1
except IndexError as e:
    print("IndexError", e)
d = [0, 1, 2, 3, 4, 5]
d[1:5:2] = [10, 30]
print(d, d[slice(1, None, 2)])
