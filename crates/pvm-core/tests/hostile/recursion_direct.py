# expect: RecursionError
# Unbounded direct recursion.
def down(n):
    return down(n + 1) + 1
print(down(0))
