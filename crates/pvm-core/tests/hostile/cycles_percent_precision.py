# expect: OutOfCycles
# cycles: 80000000
# The same through %-formatting.
x = "%.*f" % (1000000, 2.5)
print(len(x))
