# Ends with an uncaught KeyError.
inventory = {"apples": 3, "pears": 0}
orders = ["apples", "pears", "plums"]
for item in orders:
    print(item, inventory[item])
