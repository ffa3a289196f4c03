# While loops with compound conditions, sentinels and nested breaks.
queue = [5, 3, 0, 8, -1, 7]
total = 0
i = 0
while i < len(queue) and queue[i] >= 0:
    total += queue[i]
    i += 1
print(total, i)
n, steps = 27, 0
while n != 1 and steps < 1000:
    n = n // 2 if n % 2 == 0 else 3 * n + 1
    steps += 1
print(steps)
outer = 0
while True:
    outer += 1
    inner = 0
    while True:
        inner += 1
        if inner >= outer:
            break
    if outer * inner > 20:
        break
print(outer, inner)
