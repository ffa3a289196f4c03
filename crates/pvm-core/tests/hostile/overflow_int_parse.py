# expect: OverflowError
# Parsing a 2000-digit decimal string (about 6644 bits).
s = "9" * 2000
n = int(s)
print(n % 10)
