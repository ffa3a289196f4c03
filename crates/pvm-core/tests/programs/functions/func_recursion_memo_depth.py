# Recursion at moderate depth (below 200 frames) with accumulators.
def sum_to(n, acc=0):
    return acc if n == 0 else sum_to(n - 1, acc + n)
print(sum_to(180))
def power_set_size(items):
    if not items:
        return 1
    return 2 * power_set_size(items[1:])
print(power_set_size(list(range(60))))
def gcd(a, b):
    return a if b == 0 else gcd(b, a % b)
print(gcd(2 ** 200 - 1, 2 ** 120 - 1), gcd(1071, 462))
def binary(n):
    return "" if n == 0 else binary(n // 2) + str(n % 2)
print(binary(2 ** 100 + 5)[:12], len(binary(2 ** 150)))
