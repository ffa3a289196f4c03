# Edge cases of bytes searching and splitting, int arguments and negative indices.
b = b"a-b--c---d"
print(b.split(b"-"), b.split(b"--"), b.split(b"-", 2), b.rsplit(b"-", 2), b.split(b"x"))
print(b.find(b"--"), b.rfind(b"--"), b.find(b"-", 3), b.find(b"-", -4), b.find(45), b.index(100), b.count(b"-"), b.count(b"--"))
print(b[-1], b[-3:], b[::-1], b[1:-1:2], b[100:], b.startswith(b"a-"), b.endswith(b"d", 0, 10))
print(b"  x  y  ".split(), b"x\ty\nz".split(), b"".split(), b"".split(b","), b",".split(b","))
print(b"abc".partition(b"z"), b"abc".rpartition(b"z"), b"a=b=c".partition(b"="), b"a=b=c".rpartition(b"="))
try:
    b.index(b"z")
except ValueError as e:
    print("ValueError", e)
try:
    b.split(b"")
except ValueError as e:
    print("ValueError", e)
