# Roman numeral conversion both ways with validation.
VALS = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
def to_roman(n):
    if not 0 < n < 4000:
        raise ValueError(f"out of range: {n}")
    out = []
    for v, s in VALS:
        while n >= v:
            out.append(s)
            n -= v
    return "".join(out)
def from_roman(s):
    m = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
    total = 0
    for i, c in enumerate(s):
        v = m[c]
        if i + 1 < len(s) and m[s[i + 1]] > v:
            total -= v
        else:
            total += v
    if to_roman(total) != s:
        raise ValueError(f"non-canonical numeral {s}")
    return total
for n in [1, 4, 9, 14, 40, 90, 400, 1994, 2024, 3999]:
    r = to_roman(n)
    print(n, r, from_roman(r))
print(all(from_roman(to_roman(n)) == n for n in range(1, 4000, 7)))
for bad in ["IIII", "VX", "MMMM"]:
    try:
        from_roman(bad)
    except (ValueError, KeyError) as e:
        print(type(e).__name__, e)
try:
    to_roman(0)
except ValueError as e:
    print("ValueError", e)
