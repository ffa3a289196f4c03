# Return values, implicit None, early returns, multiple returns.
def nothing():
    pass
def early(x):
    if x:
        return "truthy"
    print("falls through")
def multi():
    return 1, "two", [3]
print(nothing(), early(1), early(0), multi())
a, b, c = multi()
print(a, b, c)
def ret_in_loop(limit):
    for i in range(100):
        if i * i > limit:
            return i
print(ret_in_loop(50), ret_in_loop(10**6))
