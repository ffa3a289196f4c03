# Ends with an uncaught user-defined exception.
class LedgerError(Exception):
    pass
balances = {"alice": 10}
def withdraw(who, amt):
    if balances.get(who, 0) < amt:
        raise LedgerError(f"{who} cannot withdraw {amt}")
    balances[who] -= amt
    print(who, "withdrew", amt, "left", balances[who])
withdraw("alice", 4)
withdraw("alice", 5)
withdraw("alice", 5)
