# Ends with an uncaught AttributeError on an instance.
class Wallet:
    def __init__(self):
        self.balance = 0
w = Wallet()
w.balance += 10
print("balance", w.balance)
print(w.owner)
