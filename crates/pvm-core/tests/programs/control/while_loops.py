# while loops with break/continue/else.
i = 0
while i < 10:
    i += 1
    if i % 2:
        continue
    if i == 8:
        break
    print("even", i)
else:
    print("never printed")
print("after", i)
n = 0
while n < 3:
    n += 1
else:
    print("else runs when loop ends normally", n)
def find(seq, target):
    i = 0
    while i < len(seq):
        if seq[i] == target:
            print("found at", i)
            break
        i += 1
    else:
        print("not found")
find([4, 5, 6], 5)
find([4, 5, 6], 9)
a, b = 48, 18
while b:
    a, b = b, a % b
print("gcd", a)
