# Conway's game of life on a small torus.
W, H = 12, 8
grid = [[0] * W for _ in range(H)]
for r, c in [(1, 2), (2, 3), (3, 1), (3, 2), (3, 3), (5, 8), (5, 9), (5, 10)]:
    grid[r][c] = 1
def step(g):
    new = [[0] * W for _ in range(H)]
    for r in range(H):
        for c in range(W):
            n = sum(g[(r + dr) % H][(c + dc) % W] for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
            new[r][c] = 1 if n == 3 or (n == 2 and g[r][c]) else 0
    return new
for gen in range(5):
    print(f"gen {gen} alive {sum(map(sum, grid))}")
    for row in grid:
        print("".join("#" if x else "." for x in row))
    grid = step(grid)
