# Chained comparisons with side effects evaluated once.
calls = 0
def f():
    global calls
    calls += 1
    return 5
print(1 < f() < 10, calls)
print(1 < f() > 3, calls)
x = 5
print(1 < x < 10 == 10, x == 5 != 6, 0 <= x <= 4, "a" < "b" < "c" < "b")
print(1 in [1, 2] in [[1, 2]], None is None is None, [] is not None)
grades = [95, 83, 71, 65, 50]
for g in grades:
    letter = "A" if g >= 90 else "B" if g >= 80 else "C" if g >= 70 else "D" if g >= 60 else "F"
    print(g, letter)
