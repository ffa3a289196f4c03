# Counting and grouping idioms.
text = "to be or not to be that is the question whether tis nobler in the mind to suffer"
counts = {}
for w in text.split():
    counts[w] = counts.get(w, 0) + 1
top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
print(top)
groups = {}
for w in text.split():
    groups.setdefault(len(w), []).append(w)
for k in sorted(groups):
    print(k, groups[k])
inv = {}
for w, c in counts.items():
    inv.setdefault(c, []).append(w)
print({c: sorted(ws) for c, ws in sorted(inv.items())})
letters = {}
for ch in text.replace(" ", ""):
    letters[ch] = letters.get(ch, 0) + 1
print(max(letters.items(), key=lambda kv: kv[1]), sum(letters.values()))
