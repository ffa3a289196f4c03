# Write a log file, then stream it back line by line and aggregate.
path = "/tmp/pvm_corpus_log.txt"
levels = ["INFO", "WARN", "ERROR"]
with open(path, "w") as f:
    for i in range(60):
        lvl = levels[(i * 7) % 3] if i % 5 else "DEBUG"
        f.write(f"{i:04d} {lvl:<5} handler={i % 4} took={(i * 37) % 101}ms\n")
counts = {}
slowest = (0, "")
total_ms = 0
with open(path) as f:
    for line in f:
        seq, lvl, handler, took = line.split()
        counts[lvl] = counts.get(lvl, 0) + 1
        ms = int(took[5:-2])
        total_ms += ms
        if ms > slowest[0]:
            slowest = (ms, seq)
print(counts, slowest, total_ms)
with open(path) as f:
    first = f.readline()
    rest = f.read()
print(repr(first), len(rest.splitlines()), rest.count("ERROR"))
