# abs, round and unary operators on ints.
for n in [0, 5, -5, 10**25, -10**25]:
    print(abs(n), -n, +n, ~n)
print(round(1234), round(1234, 2), round(1234, -2), round(1250, -2), round(1350, -2))
print(round(-1250, -2), round(15, -1), round(25, -1), round(-35, -1))
print(round(123456789, -5), round(10**30 + 5 * 10**10, -11))
print(type(round(5)).__name__, type(round(5, 1)).__name__)
print(divmod(-17, 5), divmod(17, -5), abs(-0))
