# Big ranges are lazy: len/index/contains without materialising.
r = range(0, 10**18, 7)
print(len(r), r[10**15], r[-1], 7 * 10**15 in r, 7 * 10**15 + 1 in r)
print(range(10**20)[10**19], len(range(-10**20, 10**20, 10**10)))
big = range(2**70)
print(big[-1] == 2**70 - 1, big[2**69:2**69 + 3], list(big[5:8]))
print(list(range(10**18, 10**18 + 3)))
