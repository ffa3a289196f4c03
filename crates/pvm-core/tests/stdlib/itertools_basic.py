import itertools as it

print(list(it.islice(it.count(5, 3), 4)), list(it.islice(it.cycle("ab"), 5)), list(it.repeat(7, 3)))
print(list(it.accumulate([1, 2, 3, 4])), list(it.accumulate([1, 2, 3], lambda a, b: a * b)), list(it.accumulate([1, 2], initial=10)))
print(list(it.chain([1], (2, 3), "ab")), list(it.chain.from_iterable([[1], [2, 3]])))
print(list(it.compress("abcdef", [1, 0, 1, 0, 1, 1])), list(it.dropwhile(lambda x: x < 3, [1, 2, 3, 1])), list(it.takewhile(lambda x: x < 3, [1, 2, 3, 1])))
print(list(it.filterfalse(lambda x: x % 2, range(6))))
print([(k, list(g)) for k, g in it.groupby("aaabbcaa")])
print([(k, len(list(g))) for k, g in it.groupby([1, 3, 2, 4, 5], key=lambda x: x % 2)])
print(list(it.starmap(pow, [(2, 3), (3, 2)])), list(it.zip_longest("ab", "xyz", fillvalue="-")))
a, b = it.tee([1, 2, 3])
print(list(a), list(b))
print(list(it.product("ab", repeat=2)), list(it.product([1, 2], "xy")))
print(list(it.permutations("abc", 2)), len(list(it.permutations(range(4)))))
print(list(it.combinations("abcd", 2)), list(it.combinations_with_replacement("ab", 2)))
print(list(it.pairwise("abcd")), list(it.islice("abcdefg", 1, 6, 2)))
print(sum(1 for _ in it.combinations(range(10), 3)))
try:
    list(it.islice("abc", -1))
except ValueError as e:
    print("ValueError:", e)
