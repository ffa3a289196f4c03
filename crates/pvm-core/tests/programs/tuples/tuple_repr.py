# repr of tuples.
print((1,), (1, 2), ((1,),), ("a", ("b", ("c",))), (None, True, 1.5, "x'y"), ())
print(repr((1,)), str(("s",)), tuple([[]]), ([],))
t = ([1],)
t[0].append(2)
print(t)
try:
    t += ([3],)
    print(t)
except TypeError as e:
    print("TypeError", e)
