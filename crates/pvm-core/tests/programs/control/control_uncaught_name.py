# Ends with an uncaught NameError.
def compute(n):
    total = 0
    for i in range(n):
        total += i
    return total
print(compute(10))
print(compute(undefined_variable))
