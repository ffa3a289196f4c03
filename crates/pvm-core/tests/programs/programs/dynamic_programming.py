# Dynamic programming: LCS, edit distance, knapsack, coin change, LIS.
def lcs(a, b):
    dp = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a)):
        for j in range(len(b)):
            dp[i + 1][j + 1] = dp[i][j] + 1 if a[i] == b[j] else max(dp[i][j + 1], dp[i + 1][j])
    out, i, j = [], len(a), len(b)
    while i and j:
        if a[i - 1] == b[j - 1]:
            out.append(a[i - 1]); i -= 1; j -= 1
        elif dp[i - 1][j] >= dp[i][j - 1]:
            i -= 1
        else:
            j -= 1
    return dp[-1][-1], "".join(reversed(out))
print(lcs("AGGTAB", "GXTXAYB"), lcs("programming", "gaming"))
def edit(a, b):
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]
print([edit(a, b) for a, b in [("kitten", "sitting"), ("", "abc"), ("flaw", "lawn"), ("same", "same")]])
def knapsack(items, cap):
    dp = [0] * (cap + 1)
    for w, v in items:
        for c in range(cap, w - 1, -1):
            dp[c] = max(dp[c], dp[c - w] + v)
    return dp[cap]
print(knapsack([(1, 1), (3, 4), (4, 5), (5, 7)], 7), knapsack([(10, 60), (20, 100), (30, 120)], 50))
def coins(amount, cs):
    INF = amount + 1
    dp = [0] + [INF] * amount
    for a in range(1, amount + 1):
        for c in cs:
            if c <= a and dp[a - c] + 1 < dp[a]:
                dp[a] = dp[a - c] + 1
    return dp[amount] if dp[amount] != INF else -1
print(coins(63, [1, 5, 10, 25]), coins(11, [2, 5]), coins(3, [2]))
def lis(a):
    tails = []
    for x in a:
        lo, hi = 0, len(tails)
        while lo < hi:
            m = (lo + hi) // 2
            if tails[m] < x:
                lo = m + 1
            else:
                hi = m
        if lo == len(tails):
            tails.append(x)
        else:
            tails[lo] = x
    return len(tails)
print(lis([10, 9, 2, 5, 3, 7, 101, 18]), lis(list(range(20))), lis([5, 4, 3]))
def partitions(n):
    p = [1] + [0] * n
    for k in range(1, n + 1):
        for i in range(k, n + 1):
            p[i] += p[i - k]
    return p[n]
print([partitions(n) for n in range(1, 15)], partitions(100))
