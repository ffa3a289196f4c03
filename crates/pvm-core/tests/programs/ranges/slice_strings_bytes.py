# Slicing text and bytes identically.
s = "The Cowboy PVM"
b = s.encode()
for sl in [slice(4, 10), slice(None, None, 3), slice(-3, None), slice(None, 3, -1), slice(1, -1, 2)]:
    print(sl, repr(s[sl]), b[sl], s[sl].encode() == b[sl])
words = s.split()
print(words[-1][::-1], s[s.index("C"):s.index(" P")], s[:0], s[len(s):])
