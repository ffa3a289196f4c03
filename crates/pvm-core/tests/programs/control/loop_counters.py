# Typical counter loops: fizzbuzz, digit reversal, running max.
for i in range(1, 21):
    out = ""
    if i % 3 == 0:
        out += "Fizz"
    if i % 5 == 0:
        out += "Buzz"
    print(out or i, end=" ")
print()
n = 123456789
rev = 0
while n:
    rev = rev * 10 + n % 10
    n //= 10
print(rev)
data = [3, 7, 2, 9, 4, 9, 1]
best = data[0]
running = []
for x in data:
    if x > best:
        best = x
    running.append(best)
print(running)
