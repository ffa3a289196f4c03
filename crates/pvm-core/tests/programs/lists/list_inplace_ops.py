# In-place operations and their identity semantics.
a = [1]
b = a
a += (2, 3)
print(a, b)
a *= 2
print(b)
a = a + [9]
print(a, b)
try:
    a = a + (1,)
except TypeError as e:
    print("TypeError", e)
c = [[1, 2], [3]]
c[0] += [5]
print(c)
c[1] *= 0
print(c)
lst = [5, 6, 7]
lst[0], lst[2] = lst[2], lst[0]
print(lst)
i = 0
lst[i], i = 99, 2
print(lst, i)
