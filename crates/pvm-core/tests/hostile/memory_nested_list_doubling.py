# expect: MemoryError
# cycles: 1000000000
# List concatenation doubling the element count each step.
x = [0, 1]
while True:
    x = x + x
