# A mempool ordering transactions by sender nonce and fee, with replacement rules.
class Mempool:
    def __init__(self, state_nonces):
        self.nonces = dict(state_nonces)
        self.pool = {}
    def add(self, sender, nonce, fee, tx_id):
        expected = self.nonces.get(sender, 0)
        if nonce < expected:
            return f"reject {tx_id}: stale nonce {nonce} < {expected}"
        slot = self.pool.setdefault(sender, {})
        if nonce in slot:
            old_fee, old_id = slot[nonce]
            if fee * 100 < old_fee * 110:
                return f"reject {tx_id}: replacement fee {fee} < 110% of {old_fee}"
            slot[nonce] = (fee, tx_id)
            return f"replace {old_id} with {tx_id}"
        slot[nonce] = (fee, tx_id)
        return f"accept {tx_id}"
    def build_block(self, max_txs):
        block = []
        heads = {}
        while len(block) < max_txs:
            best = None
            for sender, slot in self.pool.items():
                n = self.nonces.get(sender, 0)
                if n in slot:
                    fee, tx = slot[n]
                    if best is None or (fee, sender) > (best[0], best[1]):
                        best = (fee, sender, tx, n)
            if best is None:
                break
            fee, sender, tx, n = best
            del self.pool[sender][n]
            self.nonces[sender] = n + 1
            block.append(tx)
        return block
mp = Mempool({"alice": 5, "bob": 0})
for args in [("alice", 5, 10, "a5"), ("alice", 7, 50, "a7"), ("alice", 6, 20, "a6"), ("alice", 4, 99, "a4"), ("bob", 0, 15, "b0"),
             ("bob", 0, 16, "b0x"), ("bob", 0, 17, "b0y"), ("bob", 1, 30, "b1"), ("carol", 0, 25, "c0"), ("carol", 2, 90, "c2")]:
    print(mp.add(*args))
print(mp.build_block(4))
print(mp.build_block(10))
print(mp.nonces, {s: sorted(v) for s, v in mp.pool.items()})
