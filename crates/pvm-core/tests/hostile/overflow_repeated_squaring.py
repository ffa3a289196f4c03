# expect: OverflowError
# Repeated squaring crosses 4096 bits after a dozen steps.
x = 3
steps = 0
while True:
    x = x * x
    steps += 1
