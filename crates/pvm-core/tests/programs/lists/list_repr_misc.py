# repr of lists with various content, recursive lists.
print([1, "a", 2.5, None, True, [], [[]], (1,), {"k": [1]}, b"x"])
a = [1, 2]
a.append(a)
print(a, len(a), a[2][2][0])
print(str([1, 2]) == repr([1, 2]), repr(["it's", 'q"q']), [-0.0, 1e20, 1e-7])
b = [0] * 3
b[1] = b
print(b)
