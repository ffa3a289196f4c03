# Indexing and slicing of strings.
s = "abcdefghij"
print(s[0], s[-1], s[3], s[-4])
print(s[2:5], s[:3], s[7:], s[-3:], s[:-3], s[::2], s[1::3], s[::-1], s[8:2:-2], s[-1:-5:-1])
print(repr(s[5:2]), repr(s[100:]), s[-100:3], s[::-3], s[:100])
print(s[slice(1, 8, 3)], s[slice(None, None, -4)])
try:
    s[10]
except IndexError as e:
    print("IndexError", e)
try:
    s[1] = "x"
except TypeError as e:
    print("TypeError", e)
u = "héllo wörld ✓ 日本語"
print(u[1], u[7], u[-3:], u[::-1], len(u))
for i in range(0, len(u), 4):
    print(i, repr(u[i:i + 4]))
