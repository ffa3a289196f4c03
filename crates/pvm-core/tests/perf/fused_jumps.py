# A loop of comparisons feeding conditional jumps (fused by the interpreter); the cycle budget
# at which each line gets printed must not depend on the fusion.
i = 0
x = 0.5
while i < 50:
    if x < 3.0:
        x += 0.25
    if i == 7 or i != 9:
        print(i)
    i += 1
