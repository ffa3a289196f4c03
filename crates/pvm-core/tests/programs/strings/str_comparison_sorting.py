# Sorting strings with keys, case-insensitive compares, natural sort.
names = ["bob", "Alice", "carol", "alice", "Bob", "dave", "Eve", "eve10", "eve2"]
print(sorted(names))
print(sorted(names, key=str.lower))
print(sorted(names, key=lambda s: (s.lower(), s)))
print(sorted(names, key=len, reverse=True))
def natural(s):
    out, num = [], ""
    for ch in s:
        if ch.isdigit():
            num += ch
        else:
            if num:
                out.append((1, int(num), ""))
                num = ""
            out.append((0, 0, ch))
    if num:
        out.append((1, int(num), ""))
    return out
print(sorted(["file10", "file2", "file1", "file20", "file3a"], key=natural))
print(max(names), min(names), max(names, key=lambda s: s[-1]))
