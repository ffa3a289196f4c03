# Slices on tuples with all step forms.
t = tuple(range(12))
for s in [slice(None), slice(2, 9), slice(None, None, 3), slice(10, 1, -2), slice(-4, None), slice(-100, 100, 5), slice(5, 5)]:
    print(s.start, s.stop, s.step, t[s])
print(t[3:-3][::2][::-1])
