# Tuples cannot be mutated, but contained mutables can.
t = (1, [2, 3], {"k": 4})
for attempt in ["t[0] = 9", "del t[0]", "t.append(5)"]:
    try:
        if attempt == "t[0] = 9":
            t[0] = 9
        elif attempt == "del t[0]":
            del t[0]
        else:
            t.append(5)
    except (TypeError, AttributeError) as e:
        print(attempt, "->", type(e).__name__, e)
t[1].append(99)
t[2]["k"] += 1
print(t)
u = t
u += (5,)
print(t, u, len(t), len(u))
