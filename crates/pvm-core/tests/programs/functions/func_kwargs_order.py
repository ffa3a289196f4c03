# **kwargs preserve call order; dict merging in calls.
def show(**kw):
    return list(kw.items())
print(show(z=1, a=2, m=3))
print(show(**{"b": 1}, a=2, **{"c": 3}))
def defaults(a=1, b=2, c=3):
    return a, b, c
opts = {"c": 30}
print(defaults(**opts), defaults(5, **opts), defaults(c=0, b=0))
