# expect: OutOfCycles
# A loop over a range far too large to finish.
total = 0
for i in range(10**12):
    total += i
print(total)
