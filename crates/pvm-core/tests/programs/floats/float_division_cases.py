# Division results and their reprs for many integer ratios.
for a in range(1, 8):
    print(a, [a / b for b in range(1, 8)])
print([10 ** k / 3 for k in range(0, 20, 4)])
print([1 / 2 ** k for k in range(0, 60, 8)])
