# Shallow copy semantics of list copies.
orig = [[1, 2], [3, 4]]
c1 = orig[:]
c2 = list(orig)
c3 = orig.copy()
c4 = [row[:] for row in orig]
orig[0].append(99)
orig.append([5])
print(orig, c1, c2, c3, c4, sep="\n")
print(c1 == c2 == c3, c1 is c2, c1[0] is orig[0], c4[0] is orig[0])
