# slice objects and .indices().
s = slice(1, 10, 2)
print(s, s.start, s.stop, s.step, slice(5), slice(None, None, -1))
for sl in [slice(None), slice(2, None), slice(-3, None), slice(None, None, -1), slice(10, -10, -3), slice(-100, 100)]:
    print(sl, sl.indices(8), list(range(8))[sl], "abcdefgh"[sl])
print(slice(1, 2) == slice(1, 2), slice(1, 2) != slice(1, 3))
class Spy:
    def __getitem__(self, key):
        return key
sp = Spy()
print(sp[1:2], sp[::3], sp[1:2, 3], sp[...], sp[:, None], sp["k"])
try:
    slice(0, 5, 0).indices(5)
except ValueError as e:
    print("ValueError", e)
