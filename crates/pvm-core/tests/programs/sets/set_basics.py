# Set construction and membership (printed via sorted/len only).
s = {3, 1, 4, 1, 5, 9, 2, 6}
print(len(s), sorted(s), 4 in s, 7 in s, 7 not in s)
print(sorted(set("mississippi")), len(set()), set(), {1}, frozenset(), frozenset({2}))
s.add(7); s.add(3)
print(sorted(s))
s.discard(100); s.discard(1)
s.remove(9)
print(sorted(s))
try:
    s.remove(100)
except KeyError as e:
    print("KeyError", e)
x = s.pop()
print(x in s, len(s))
s.clear()
print(len(s), s)
print(sorted(set([1, 1.0, True, 2])), len({(1, 2), (1, 2)}), sorted({"b", "a"}))
try:
    {[1]}
except TypeError as e:
    print("TypeError", e)
