# Generator pipelines processing records.
records = ["alice,30,nyc", "bob,x,sf", "carol,25,la", "", "dave,41,nyc", "eve,19,sf"]
def parse(lines):
    for line in lines:
        if not line:
            continue
        name, age, city = line.split(",")
        try:
            yield {"name": name, "age": int(age), "city": city}
        except ValueError:
            print("skip bad age for", name)
def adults(rows):
    for r in rows:
        if r["age"] >= 21:
            yield r
def group(rows):
    out = {}
    for r in rows:
        out.setdefault(r["city"], []).append(r["name"])
    return out
print(group(adults(parse(records))))
