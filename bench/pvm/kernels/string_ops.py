# String-heavy kernel: building, splitting, joining, replacing, formatting and slicing.
ROUNDS = 1200


def make_line(i):
    return "id=%d;name=item_%04d;tags=%s;price=%d.%02d" % (i, i, ",".join("t%d" % (i % k) for k in (2, 3, 5)), i // 7, i % 100)


checksum = 0
for r in range(ROUNDS):
    lines = [make_line(r * 40 + i) for i in range(40)]
    blob = "\n".join(lines)
    total = 0
    for line in blob.split("\n"):
        fields = dict(part.split("=", 1) for part in line.split(";"))
        name = fields["name"].upper().replace("ITEM_", "I-")
        tags = fields["tags"].split(",")
        whole, frac = fields["price"].split(".")
        total += len(name) + len(tags) + int(whole) * 100 + int(frac)
        padded = f"{name:>12}|{fields['id']:<6}|{'/'.join(reversed(tags))}"
        total += padded.count("t") + padded.find("|") + len(padded.strip())
    rev = blob[::-1]
    total += rev.count("=") + len(rev.split(";")) + blob.lower().count("item")
    words = blob.replace(";", " ").replace("\n", " ").split()
    total += len(" ".join(sorted(words)[:20])) + sum(1 for w in words if w.startswith("tags"))
    checksum = (checksum * 131 + total) % 1000000007
print(f"string_ops rounds={ROUNDS} checksum={checksum}")
