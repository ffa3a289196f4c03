# Operators on lists: +, *, in, ==, <, nesting, aliasing.
a = [1, 2, 3]
b = a
b += [4]
print(a, a is b)
c = a + [5]
print(a, c, a is c)
print([0] * 5, [[0] * 2] * 2, 3 * ["x"], [] * 10)
grid = [[0] * 3] * 3
grid[0][0] = 1
print(grid)
grid = [[0] * 3 for _ in range(3)]
grid[0][0] = 1
print(grid)
print([1, 2] < [1, 3], [1, 2] < [1, 2, 0], [2] > [1, 99], [] < [0], [1, [2, 3]] == [1, [2, 3]])
print(3 in a, 9 not in a, [2, 3] in [[2, 3]], len([[]]), bool([]), bool([0]))
m = a
m *= 2
print(a, len(a))
x = [1, 2, 3]
x[1:2] = x
print(x)
