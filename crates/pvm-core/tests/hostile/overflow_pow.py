# expect: OverflowError
# 2**10000 is far above the 4096-bit integer cap.
print(2 ** 10000)
