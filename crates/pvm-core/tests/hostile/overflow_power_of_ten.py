# expect: OverflowError
# 10**5000 has about 16610 bits.
big = 10 ** 5000
print(len(str(big)))
