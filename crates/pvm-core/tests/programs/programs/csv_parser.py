# A CSV parser handling quotes, escaped quotes, embedded newlines; and a report from the data.
def parse_csv(text):
    rows, row, field = [], [], []
    i, inq = 0, False
    while i < len(text):
        c = text[i]
        if inq:
            if c == '"':
                if i + 1 < len(text) and text[i + 1] == '"':
                    field.append('"')
                    i += 1
                else:
                    inq = False
            else:
                field.append(c)
        elif c == '"':
            inq = True
        elif c == ",":
            row.append("".join(field)); field = []
        elif c == "\n":
            row.append("".join(field)); field = []
            rows.append(row); row = []
        else:
            field.append(c)
        i += 1
    if field or row:
        row.append("".join(field))
        rows.append(row)
    return rows
data = 'name,city,amount,note\nalice,"New York, NY",120.50,"said ""hi"""\nbob,Paris,80,\n"carol",Berlin,200.25,"multi\nline"\ndave,Paris,15.75,ok\n'
rows = parse_csv(data)
header, body = rows[0], rows[1:]
for r in body:
    print(dict(zip(header, r)))
by_city = {}
for r in body:
    by_city[r[1]] = by_city.get(r[1], 0.0) + float(r[2])
for city, amt in sorted(by_city.items(), key=lambda kv: -kv[1]):
    print(f"{city:<14}{amt:>10.2f}")
def to_csv(rows):
    def q(f):
        return '"' + f.replace('"', '""') + '"' if any(c in f for c in ',"\n') else f
    return "\n".join(",".join(q(f) for f in r) for r in rows) + "\n"
print(to_csv(rows) == data, parse_csv(to_csv(rows)) == rows)
