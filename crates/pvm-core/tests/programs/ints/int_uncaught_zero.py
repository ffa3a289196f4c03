# Ends with an uncaught ZeroDivisionError.
total = 0
for i in range(5, -1, -1):
    total += 100 // (i + 1)
    print(i, total)
print("about to divide by zero")
print(total // (i - i))
print("unreachable")
