# Classic list algorithms: binary search, rotation, two-pointer, prefix sums.
def bsearch(a, x):
    lo, hi = 0, len(a)
    while lo < hi:
        mid = (lo + hi) // 2
        if a[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo
a = [1, 3, 3, 5, 8, 13, 21]
print([bsearch(a, x) for x in [0, 1, 3, 4, 21, 22]])
def rotate(a, k):
    k %= len(a)
    return a[-k:] + a[:-k]
print(rotate(a, 2), rotate(a, -1), rotate(a, 7))
def two_sum(a, t):
    i, j = 0, len(a) - 1
    while i < j:
        s = a[i] + a[j]
        if s == t:
            return i, j
        if s < t:
            i += 1
        else:
            j -= 1
    return None
print(two_sum(a, 16), two_sum(a, 100))
pre = [0]
for x in a:
    pre.append(pre[-1] + x)
print(pre, pre[5] - pre[2])
def merge(x, y):
    out, i, j = [], 0, 0
    while i < len(x) and j < len(y):
        if x[i] <= y[j]:
            out.append(x[i]); i += 1
        else:
            out.append(y[j]); j += 1
    return out + x[i:] + y[j:]
print(merge([1, 4, 9], [2, 3, 10, 11]))
