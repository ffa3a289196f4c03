# Common string-building patterns: tables, wrapping, padding.
rows = [("apple", 3, 1.25), ("banana", 12, 0.5), ("cherry", 100, 12.0)]
print(f"{'name':<10}{'qty':>5}{'price':>8}")
for name, q, p in rows:
    print(f"{name:<10}{q:>5}{p:>8.2f}")
print("-" * 23)
print(f"{'total':<10}{sum(r[1] for r in rows):>5}{sum(r[1] * r[2] for r in rows):>8.2f}")
text = "The quick brown fox jumps over the lazy dog and keeps running far away"
line, lines = "", []
for w in text.split():
    if len(line) + len(w) + (1 if line else 0) > 20:
        lines.append(line)
        line = w
    else:
        line = line + " " + w if line else w
lines.append(line)
for l in lines:
    print("|" + l.ljust(20) + "|")
print("\n".join(f"{i:>2}: {'#' * i}" for i in range(1, 6)))
