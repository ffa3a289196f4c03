# Powers, including negative exponents and three-argument pow.
print(2 ** 10, 2 ** 0, 0 ** 0, (-3) ** 3, (-3) ** 4)
print(2 ** -1, 2 ** -3, (-2) ** -2, 10 ** -2)
print(pow(3, 4), pow(3, 4, 5), pow(-3, 4, 5), pow(3, 4, -5))
print(pow(2, 100, 1000000007), pow(7, 10**18, 10**9 + 9))
print(pow(3, -1, 7), pow(5, -2, 13), pow(38, -1, 97))
print(pow(123456789, 65537, 2**127 - 1))
print(pow(2, 0, 1), pow(0, 5, 3), pow(10, 3, 1))
for e in range(0, 40, 7):
    print(e, 3 ** e, pow(3, e, 1000))
try:
    pow(2, -1, 4)
except ValueError as e:
    print("ValueError", e)
try:
    pow(2, 3.0, 5)
except TypeError as e:
    print("TypeError")
