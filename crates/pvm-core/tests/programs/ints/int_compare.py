# Comparisons, chained comparisons and mixing ints with bools/floats.
print(1 < 2 < 3, 1 < 3 < 2, 3 > 2 > 1, 1 == 1.0, 2 != 2.0)
print(-5 < -4, 10**30 > 10**29, -(10**30) < -(10**29))
print(True + True, True * 10, False - 1, True == 1, False == 0)
print(max(3, -7, 10**20), min(3, -7, -(10**20)))
print(2**53 + 1 == float(2**53 + 1), 2**53 == float(2**53))
print(10**400 > 1e308, -(10**400) < -1e308, 10**400 < float("inf"))
print(sorted([5, -3, 10**25, 0, -10**25, 7, True]))
x = 5
print(0 < x <= 5, 0 < x < 5, x == 5 == 5.0)
print((1, 2) < (1, 3), (2,) > (1, 9, 9), [1, 2] == [1, 2])
