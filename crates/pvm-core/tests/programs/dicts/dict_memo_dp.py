# Memoisation with dicts (explicit cache).
cache = {}
def ways(n, coins):
    key = (n, len(coins))
    if key in cache:
        return cache[key]
    if n == 0:
        r = 1
    elif n < 0 or not coins:
        r = 0
    else:
        r = ways(n - coins[0], coins) + ways(n, coins[1:])
    cache[key] = r
    return r
print(ways(100, [50, 25, 10, 5, 1]), len(cache))
fibmemo = {0: 0, 1: 1}
def fib(n):
    if n not in fibmemo:
        fibmemo[n] = fib(n - 1) + fib(n - 2)
    return fibmemo[n]
print(fib(90), len(fibmemo))
