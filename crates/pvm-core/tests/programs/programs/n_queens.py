# N-queens via backtracking: count and print the first solution.
def solve(n):
    cols, d1, d2 = set(), set(), set()
    sol, out = [], []
    def place(r):
        if r == n:
            out.append(sol[:])
            return
        for c in range(n):
            if c in cols or r - c in d1 or r + c in d2:
                continue
            cols.add(c); d1.add(r - c); d2.add(r + c); sol.append(c)
            place(r + 1)
            cols.remove(c); d1.remove(r - c); d2.remove(r + c); sol.pop()
    place(0)
    return out
for n in range(1, 8):
    s = solve(n)
    print(n, len(s), s[0] if s else None)
for c in solve(6)[0]:
    print(" ".join("Q" if i == c else "." for i in range(6)))
