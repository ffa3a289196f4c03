# Single-element and empty sets can be printed; repr format checks.
print({1}, {"a"}, {(1, 2)}, set(), frozenset(), frozenset({1}), {None}, {2.5})
print(repr({"x"}), str(frozenset(["q"])), [{1}], ({1},), {"k": {1}})
s = {5}
s.add(5)
print(s, len(s), s == {5}, set([5]) | set(), set() | {5})
