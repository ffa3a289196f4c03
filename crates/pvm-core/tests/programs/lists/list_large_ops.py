# Moderate-size list workloads.
n = 2000
a = [(i * 7919) % 1009 for i in range(n)]
print(sum(a), max(a), min(a), len(set(a)))
s = sorted(a)
print(s[:5], s[-5:], s[n // 2])
uniq = sorted(set(a))
print(len(uniq), uniq[:10])
cnt = [0] * 1009
for x in a:
    cnt[x] += 1
print(max(cnt), cnt.index(max(cnt)), sum(1 for c in cnt if c == 0))
b = a[::-1]
b.sort(key=lambda x: -x)
print(b[:3], b == sorted(a, reverse=True))
