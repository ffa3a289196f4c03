# Errors and type interplay of set operators.
a = {1, 2}
try:
    a | [3]
except TypeError as e:
    print("TypeError", e)
try:
    a < [1, 2, 3]
except TypeError as e:
    print("TypeError", e)
print(sorted(a.union([3])), a.issubset([1, 2, 3]))
try:
    set().pop()
except KeyError as e:
    print("KeyError", e)
try:
    hash({1})
except TypeError as e:
    print("TypeError", e)
