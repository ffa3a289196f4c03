# A constant-product AMM (x*y=k) with integer math, fees in basis points and LP shares.
import math
class Pool:
    FEE_BPS = 30
    def __init__(self):
        self.x = self.y = 0
        self.shares = {}
        self.total = 0
    def add_liquidity(self, who, dx, dy):
        if self.total == 0:
            minted = math.isqrt(dx * dy)
        else:
            minted = min(dx * self.total // self.x, dy * self.total // self.y)
        self.x += dx
        self.y += dy
        self.shares[who] = self.shares.get(who, 0) + minted
        self.total += minted
        return minted
    def quote(self, amount_in, reserve_in, reserve_out):
        a = amount_in * (10000 - self.FEE_BPS)
        return a * reserve_out // (reserve_in * 10000 + a)
    def swap_x_for_y(self, dx, min_out):
        out = self.quote(dx, self.x, self.y)
        if out < min_out:
            raise ValueError(f"slippage: got {out}, wanted >= {min_out}")
        self.x += dx
        self.y -= out
        return out
    def swap_y_for_x(self, dy, min_out):
        out = self.quote(dy, self.y, self.x)
        if out < min_out:
            raise ValueError(f"slippage: got {out}, wanted >= {min_out}")
        self.y += dy
        self.x -= out
        return out
    def remove_liquidity(self, who, share):
        if self.shares.get(who, 0) < share:
            raise ValueError(f"{who} owns only {self.shares.get(who, 0)} shares")
        dx = share * self.x // self.total
        dy = share * self.y // self.total
        self.shares[who] -= share
        self.total -= share
        self.x -= dx
        self.y -= dy
        return dx, dy
p = Pool()
print("lp alice", p.add_liquidity("alice", 10**18, 4 * 10**21))
print("lp bob", p.add_liquidity("bob", 5 * 10**17, 2 * 10**21))
k0 = p.x * p.y
for i, (side, amt, minimum) in enumerate([("x", 10**16, 0), ("y", 3 * 10**19, 7 * 10**15), ("x", 5 * 10**17, 2 * 10**21), ("y", 10**20, 0)]):
    try:
        out = p.swap_x_for_y(amt, minimum) if side == "x" else p.swap_y_for_x(amt, minimum)
        print(i, "swap", side, amt, "->", out, "price", p.y * 10**6 // p.x)
    except ValueError as e:
        print(i, "rejected", e)
print("k grew", p.x * p.y >= k0, p.x, p.y)
print("remove", p.remove_liquidity("bob", p.shares["bob"] // 2), p.shares, p.total)
try:
    p.remove_liquidity("carol", 1)
except ValueError as e:
    print("ValueError", e)
