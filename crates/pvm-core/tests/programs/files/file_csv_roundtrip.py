# Persist records to a /tmp file as CSV text and load them again.
path = "/tmp/pvm_corpus_records.csv"
records = [("alice", 30, 1200.5), ("bob", 25, 980.0), ("carol", 41, 15000.25)]
with open(path, "w") as f:
    f.write("name,age,balance\n")
    for r in records:
        f.write(",".join(str(x) for x in r) + "\n")
loaded = []
with open(path) as f:
    header = f.readline().strip().split(",")
    for line in f:
        name, age, bal = line.strip().split(",")
        loaded.append((name, int(age), float(bal)))
print(header)
print(loaded, loaded == records)
print(sum(r[2] for r in loaded), max(loaded, key=lambda r: r[1])[0])
