# split, rsplit, splitlines, partition, join.
s = "  a  b\tc\n d  "
print(s.split(), s.split(" "), s.split(None, 1), s.rsplit(None, 1))
print("a,b,,c,".split(","), "a,b,,c,".split(",", 2), "a,b,,c,".rsplit(",", 2), "".split(","), "".split())
print("k=v=w".partition("="), "k=v=w".rpartition("="), "kvw".partition("="), "kvw".rpartition("="))
text = "line1\nline2\r\nline3\rline4\n\nlast"
print(text.splitlines(), text.splitlines(keepends=True))
print("x\n".splitlines(), "\n".splitlines(True), "".splitlines())
print("-".join(["a", "b", "c"]), "".join([]), ", ".join(str(i) for i in range(5)), "ab".join("XYZ"))
try:
    ",".join([1, 2])
except TypeError as e:
    print("TypeError", e)
try:
    "a".split("")
except ValueError as e:
    print("ValueError", e)
print("a  b".split(" "), "1 2 3".split(maxsplit=1), "1-2-3".rsplit("-", maxsplit=1))
