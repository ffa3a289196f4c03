# expect: OverflowError
# A left shift past the cap.
x = 1 << 5000
print(x.bit_length())
