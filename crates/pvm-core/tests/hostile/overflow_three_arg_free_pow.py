# expect: OverflowError
# pow() without a modulus on a large exponent.
print(pow(7, 10**6) % 1000)
