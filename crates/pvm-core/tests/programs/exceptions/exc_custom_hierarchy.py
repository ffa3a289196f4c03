# A custom exception hierarchy for an actor with error codes.
class ActorError(Exception):
    code = 1
    def __init__(self, msg, **ctx):
        super().__init__(msg)
        self.ctx = ctx
    def __str__(self):
        base = super().__str__()
        if self.ctx:
            return base + " " + " ".join(f"{k}={v}" for k, v in self.ctx.items())
        return base
class Unauthorized(ActorError):
    code = 401
class NotFound(ActorError):
    code = 404
class Conflict(ActorError):
    code = 409
def handler(action):
    if action == "steal":
        raise Unauthorized("caller not owner", caller="eve", owner="ann")
    if action == "get-missing":
        raise NotFound("no such key", key="k9")
    if action == "double":
        raise Conflict("already exists")
    if action == "crash":
        raise ZeroDivisionError("division by zero")
    return "ok"
for a in ["read", "steal", "get-missing", "double", "crash"]:
    try:
        print(a, handler(a))
    except ActorError as e:
        print(a, type(e).__name__, e.code, e, e.args)
    except Exception as e:
        print(a, "internal", type(e).__name__, e)
print([c.__name__ for c in Conflict.__mro__])
