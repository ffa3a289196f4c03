# Generators are lazy: side effects happen on demand and finally runs at exhaustion.
def numbers():
    try:
        for i in range(3):
            print("producing", i)
            yield i
    finally:
        print("generator finished")
g = numbers()
print("created")
for v in g:
    print("consumed", v)
print("after loop")
g2 = numbers()
print(next(g2))
del g2
print("deleted reference")
def take_while(pred, it):
    for x in it:
        if not pred(x):
            return
        yield x
print(list(take_while(lambda x: x < 10, (i * i for i in range(100)))))
