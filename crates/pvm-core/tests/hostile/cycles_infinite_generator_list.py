# expect: OutOfCycles
# cycles: 1000000
# An infinite generator consumed by list(); the low cycle limit trips long before memory does.
def ones():
    while True:
        yield 1
print(len(list(ones())))
