# Loops with early returns from functions and loop variables after loops.
def first_negative(xs):
    for i, x in enumerate(xs):
        if x < 0:
            return i
    return -1
print(first_negative([3, 1, -2, 5]), first_negative([1, 2]))
for i in range(3):
    pass
print("i after loop", i)
def search(grid, target):
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            if v == target:
                return r, c
grid = [[1, 2], [3, 4]]
print(search(grid, 4), search(grid, 7))
count = 0
for a in range(5):
    for b in range(5):
        for c in range(5):
            if a + b + c == 6:
                count += 1
print("triples", count)
