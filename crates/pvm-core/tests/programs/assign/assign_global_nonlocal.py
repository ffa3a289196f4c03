# global and nonlocal declarations.
counter = 0
def bump():
    global counter
    counter += 1
    return counter
bump(); bump()
print(counter)
def make():
    n = 0
    def inc(k=1):
        nonlocal n
        n += k
        return n
    def get():
        return n
    return inc, get
inc, get = make()
inc(); inc(5)
print(get())
def outer():
    x = "outer"
    def mid():
        def inner():
            nonlocal x
            x = "changed by inner"
        inner()
    mid()
    return x
print(outer())
def shadow():
    counter = 100
    return counter
print(shadow(), counter)
def create_global():
    global brand_new
    brand_new = "created"
create_global()
print(brand_new)
