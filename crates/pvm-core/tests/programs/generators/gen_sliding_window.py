# Sliding windows, chunking and pairwise with generators.
def window(seq, n):
    buf = []
    for x in seq:
        buf.append(x)
        if len(buf) > n:
            buf.pop(0)
        if len(buf) == n:
            yield tuple(buf)
print(list(window(range(6), 3)))
def chunks(seq, n):
    for i in range(0, len(seq), n):
        yield seq[i:i + n]
print(list(chunks("abcdefgh", 3)), list(chunks(list(range(5)), 2)))
def pairwise(it):
    it = iter(it)
    prev = next(it, None)
    for x in it:
        yield prev, x
        prev = x
print(list(pairwise([1, 4, 9, 16])))
print([b - a for a, b in pairwise([1, 4, 9, 16])])
