# Using tuples from zip to rotate and flip a grid.
grid = ((1, 2, 3), (4, 5, 6), (7, 8, 9))
rot = tuple(zip(*grid[::-1]))
print(rot)
print(tuple(zip(*grid))[::-1])
print(tuple(row[::-1] for row in grid))
diag = tuple(grid[i][i] for i in range(3))
anti = tuple(grid[i][2 - i] for i in range(3))
print(diag, anti, sum(diag) + sum(anti))
