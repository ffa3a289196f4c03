# The list method set.
a = [3, 1, 4, 1, 5]
a.append(9); print(a)
a.extend([2, 6]); print(a)
a.insert(0, 0); a.insert(100, 7); a.insert(-1, 8); print(a)
print(a.pop(), a.pop(0), a.pop(-2), a)
a.remove(1); print(a)
print(a.index(5), a.index(1), a.count(1), a.count(42))
a.reverse(); print(a)
a.sort(); print(a)
a.sort(reverse=True); print(a)
b = a.copy(); b.append(-1); print(a, b)
b.clear(); print(b, len(b))
try:
    a.remove(100)
except ValueError as e:
    print("ValueError", e)
try:
    [].pop()
except IndexError as e:
    print("IndexError", e)
try:
    a.index(100)
except ValueError as e:
    print("ValueError", e)
print(a.index(1, 2) if 1 in a[2:] else "n/a", [1, 2, 3, 2].index(2, 2))
