# Append mode, overwrite mode and reading lines back.
path = "/tmp/pvm_corpus_append.txt"
with open(path, "w") as f:
    f.write("start\n")
for i in range(3):
    with open(path, "a") as f:
        f.write(f"entry {i}\n")
with open(path) as f:
    lines = f.read().splitlines()
print(lines, len(lines))
with open(path, "w") as f:
    f.write("reset\n")
with open(path) as f:
    print(repr(f.read()))
