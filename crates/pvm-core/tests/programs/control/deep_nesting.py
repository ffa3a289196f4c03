# Deeply nested control structures.
result = []
for a in range(3):
    if a != 1:
        for b in range(3):
            while b < 2:
                if (a + b) % 2 == 0:
                    result.append((a, b))
                else:
                    try:
                        if b == 1:
                            raise ValueError(b)
                    except ValueError as e:
                        result.append(("err", a, e.args[0]))
                b += 1
print(result)
