# Slice assignment that grows/shrinks lists and bytearrays.
for start, stop, repl in [(0, 0, [9]), (1, 3, []), (2, 2, [7, 7, 7]), (0, 5, [1]), (-2, None, "xy"), (4, 1, [0])]:
    a = list(range(5))
    a[start:stop] = repl
    b = bytearray(b"01234")
    b[start:stop] = bytes(str(repl), "ascii")[:2] if repl else b""
    print(start, stop, repl, a, b)
