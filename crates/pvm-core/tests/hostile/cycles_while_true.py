# expect: OutOfCycles
# cycles: 1000000
# The plainest infinite loop.
print("spinning")
while True:
    pass
