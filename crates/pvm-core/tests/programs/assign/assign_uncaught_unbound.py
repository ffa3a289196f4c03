# Ends with an uncaught UnboundLocalError.
total = 10
def spend(n):
    print("spending", n)
    total -= n
    return total
spend(3)
