# Setting attributes via assignment, setattr and augmented ops on properties.
class Account:
    def __init__(self):
        self._bal = 0
    @property
    def balance(self):
        print("get")
        return self._bal
    @balance.setter
    def balance(self, v):
        print("set", v)
        self._bal = v
acc = Account()
acc.balance = 10
acc.balance += 5
print(acc.balance)
setattr(acc, "note", "hi")
print(acc.note, getattr(acc, "note"), vars(acc))
