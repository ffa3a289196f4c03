# Dispatch tables and type-based dispatch.
def describe(v):
    handlers = {int: lambda x: f"int:{x}", str: lambda x: f"str:{x!r}", list: lambda x: f"list[{len(x)}]"}
    for t, h in handlers.items():
        if type(v) is t:
            return h(v)
    if isinstance(v, (tuple, dict)):
        return type(v).__name__ + "!"
    return "other"
for v in [1, "s", [1, 2], (1,), {}, 1.5, True, None]:
    print(describe(v))
