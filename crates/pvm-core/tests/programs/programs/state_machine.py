# A vending machine state machine with a transition table.
class VendingMachine:
    PRICES = {"cola": 150, "chips": 100, "candy": 65}
    def __init__(self):
        self.state = "idle"
        self.credit = 0
        self.stock = {"cola": 2, "chips": 1, "candy": 5}
        self.log = []
    def event(self, ev, arg=None):
        handler = getattr(self, f"on_{self.state}_{ev}", None)
        if handler is None:
            self.log.append(f"ignored {ev} in {self.state}")
            return
        nxt = handler(arg)
        self.log.append(f"{self.state} --{ev}--> {nxt}")
        self.state = nxt
    def on_idle_coin(self, v):
        self.credit += v
        return "paying"
    def on_paying_coin(self, v):
        self.credit += v
        return "paying"
    def on_paying_select(self, item):
        if self.stock.get(item, 0) == 0:
            self.log.append(f"sold out {item}")
            return "paying"
        if self.credit < self.PRICES[item]:
            self.log.append(f"need {self.PRICES[item] - self.credit} more for {item}")
            return "paying"
        self.stock[item] -= 1
        self.credit -= self.PRICES[item]
        self.log.append(f"vend {item}, change {self.credit}")
        self.credit = 0
        return "idle"
    def on_paying_cancel(self, _):
        self.log.append(f"refund {self.credit}")
        self.credit = 0
        return "idle"
vm = VendingMachine()
script = [("select", "cola"), ("coin", 100), ("select", "cola"), ("coin", 25), ("coin", 25), ("select", "cola"),
          ("coin", 200), ("select", "chips"), ("coin", 100), ("select", "chips"), ("cancel", None), ("cancel", None),
          ("coin", 500), ("select", "cola"), ("coin", 150), ("select", "cola")]
for ev, arg in script:
    vm.event(ev, arg)
for line in vm.log:
    print(line)
print(vm.state, vm.credit, vm.stock)
