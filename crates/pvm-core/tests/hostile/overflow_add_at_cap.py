# expect: OverflowError
# Adding two 4096-bit numbers produces a 4097-bit one.
x = 2 ** 4095
y = x + x
print(y.bit_length())
