# Ends with an uncaught OverflowError: converting an infinite float to int.
x = 10.0
for i in range(5):
    x = x * x
    print(i, x)
print("squaring past the float range")
for i in range(5):
    x = x * x
    print(i, x)
print("now converting", x, "to int")
print(int(x))
