# Range equality compares the sequences; ranges as dict keys.
print(range(0) == range(5, 2), range(1, 2) == range(1, 3, 5), range(0, 10, 3) == range(0, 11, 3), range(3) != range(4))
d = {range(3): "a"}
print(d[range(0, 3)], range(0, 3, 1) in d, range(2) in d)
print(list(range(3)) == [0, 1, 2], range(3) == [0, 1, 2], tuple(range(3)) == (0, 1, 2))
