# Run-length encoding and LZ77-ish compression on strings.
def rle(s):
    out = []
    i = 0
    while i < len(s):
        j = i
        while j < len(s) and s[j] == s[i]:
            j += 1
        out.append(f"{j - i}{s[i]}")
        i = j
    return "".join(out)
def unrle(s):
    out, num = [], ""
    for c in s:
        if c.isdigit():
            num += c
        else:
            out.append(c * int(num))
            num = ""
    return "".join(out)
for s in ["aaabccddddde", "abc", "", "zzzzzzzzzzzz", "aabbaabb"]:
    e = rle(s)
    print(repr(s), e, unrle(e) == s)
def lz(s, window=16):
    out, i = [], 0
    while i < len(s):
        best = (0, 0)
        for j in range(max(0, i - window), i):
            k = 0
            while i + k < len(s) and s[j + k] == s[i + k] and k < 15:
                k += 1
            if k > best[1]:
                best = (i - j, k)
        if best[1] >= 3:
            out.append(best)
            i += best[1]
        else:
            out.append(s[i])
            i += 1
    return out
def unlz(toks):
    out = []
    for t in toks:
        if isinstance(t, tuple):
            off, n = t
            for _ in range(n):
                out.append(out[-off])
        else:
            out.append(t)
    return "".join(out)
text = "abcabcabcabcxyzxyzabcabc-hello hello hello"
toks = lz(text)
print(toks)
print(unlz(toks) == text, len(toks), len(text))
