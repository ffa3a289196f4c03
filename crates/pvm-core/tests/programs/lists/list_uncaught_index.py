# Ends with an uncaught IndexError.
items = ["a", "b", "c"]
for i in range(len(items)):
    print(i, items[i])
print("reading past the end")
print(items[len(items)])
