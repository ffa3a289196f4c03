# expect: SandboxError
# Generator frames expose locals and f_back chains.
def gen():
    yield 1
g = gen()
next(g)
print(g.gi_frame)
