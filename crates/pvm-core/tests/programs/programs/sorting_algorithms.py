# Several sorting algorithms compared against sorted().
def bubble(a):
    a = a[:]
    for i in range(len(a)):
        swapped = False
        for j in range(len(a) - 1 - i):
            if a[j] > a[j + 1]:
                a[j], a[j + 1] = a[j + 1], a[j]
                swapped = True
        if not swapped:
            break
    return a
def insertion(a):
    a = a[:]
    for i in range(1, len(a)):
        k = a[i]
        j = i - 1
        while j >= 0 and a[j] > k:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = k
    return a
def merge_sort(a):
    if len(a) <= 1:
        return a
    m = len(a) // 2
    l, r = merge_sort(a[:m]), merge_sort(a[m:])
    out, i, j = [], 0, 0
    while i < len(l) and j < len(r):
        if l[i] <= r[j]:
            out.append(l[i]); i += 1
        else:
            out.append(r[j]); j += 1
    return out + l[i:] + r[j:]
def quick(a):
    if len(a) <= 1:
        return a
    p = a[len(a) // 2]
    return quick([x for x in a if x < p]) + [x for x in a if x == p] + quick([x for x in a if x > p])
def heap_sort(a):
    a = a[:]
    n = len(a)
    def sift(i, n):
        while True:
            l, m = 2 * i + 1, i
            if l < n and a[l] > a[m]:
                m = l
            if l + 1 < n and a[l + 1] > a[m]:
                m = l + 1
            if m == i:
                return
            a[i], a[m] = a[m], a[i]
            i = m
    for i in range(n // 2 - 1, -1, -1):
        sift(i, n)
    for end in range(n - 1, 0, -1):
        a[0], a[end] = a[end], a[0]
        sift(0, end)
    return a
def counting(a):
    lo, hi = min(a), max(a)
    c = [0] * (hi - lo + 1)
    for x in a:
        c[x - lo] += 1
    return [i + lo for i, n in enumerate(c) for _ in range(n)]
data = [(i * 7919 + 13) % 211 - 100 for i in range(150)]
ref = sorted(data)
for f in (bubble, insertion, merge_sort, quick, heap_sort, counting):
    r = f(data)
    print(f.__name__, r == ref, r[:6], r[-3:])
print(data[:10])
