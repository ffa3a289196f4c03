# Write a text file under /tmp and read it back in several ways.
path = "/tmp/pvm_corpus_write_read.txt"
with open(path, "w") as f:
    n = f.write("line one\nline two\n")
    f.write("third line without newline")
print("wrote", n)
with open(path) as f:
    print(repr(f.read()))
with open(path, "r") as f:
    print(f.readline(), end="")
    print(repr(f.readline()))
    print(repr(f.readline()))
    print(repr(f.readline()))
with open(path) as f:
    print(f.readlines())
with open(path) as f:
    for i, line in enumerate(f):
        print(i, repr(line.rstrip("\n")))
