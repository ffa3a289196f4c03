"""Price-oracle consumer: asks an HTTP runner (CIP-2) for a price and keeps the last
verified one. Follows the whitepaper's pattern for asynchronous requests: the job id is
the correlation id, and a timer bounds how long the actor waits for the result."""

from cowboy_sdk import actor, ctx, runner, set_timer, cancel_timer, emit, require, Unauthorized, ActorError

TIMEOUT_BLOCKS = 30


@actor
class PriceFeed:
    def __init__(self, url, max_price):
        self.storage["owner"] = ctx.sender
        self.storage["url"] = url
        self.storage["max_price"] = max_price
        self.storage["price"] = None

    def request(self):
        require(ctx.sender == self.storage["owner"], "only the owner requests prices", Unauthorized)
        require("pending" not in self.storage, "a request is already pending", ActorError)
        spec = {"url": self.storage["url"], "method": "GET", "select": "price"}
        job = runner.submit("http", spec, "on_price", self.storage["max_price"], 20)
        deadline = ctx.block_height + TIMEOUT_BLOCKS
        timer = set_timer(deadline, "on_timeout", job)
        self.storage["pending"] = {"job": job, "timer": timer, "deadline": deadline}
        return job

    @runner.continuation
    def on_price(self, job_id, result):
        pending = self.storage.get("pending")
        if pending is not None and pending["job"] == job_id:
            cancel_timer(pending["timer"])
            del self.storage["pending"]
        price = result["price"]
        require(isinstance(price, int) and price > 0, "the runner returned no usable price", ActorError)
        self.storage["price"] = [price, ctx.block_height]
        emit("Price", {"price": price})
        return price

    def on_timeout(self, job_id):
        pending = self.storage.get("pending")
        if pending is None or pending["job"] != job_id:
            return False
        require(ctx.block_height >= pending["deadline"], "the request has not timed out", ActorError)
        del self.storage["pending"]
        emit("Timeout", {"job": job_id})
        return True

    def price(self):
        return self.storage["price"]
