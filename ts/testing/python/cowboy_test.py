"""cowboy_test: the test API of `cowboy test` (runs inside the PVM).

Tests are plain functions named `test_*` in `tests/test_*.py`. Their parameters name
fixtures, resolved like pytest does: the built-in ones below, `@fixture` functions of the
test file or of `tests/conftest.py` (which may themselves take fixtures, and may `yield` to
run teardown code after the test).

Built-in fixtures:
    chain     a fresh simulated chain (the real state transition, one per test)
    accounts  the ten funded development accounts
    alice, bob, carol, dave, eve   accounts[0..4]
    deploy    deploy(path_or_source, *init_args, sender=alice, value=0) -> Actor

Every call crosses to the test host (`_cowboy_bridge.request`), which drives the chain.
"""

import _cowboy_bridge

__all__ = [
    "fixture",
    "parametrize",
    "raises",
    "Chain",
    "Account",
    "Actor",
    "Receipt",
    "Event",
    "ActorError",
    "ActorCallError",
    "Unauthorized",
    "InsufficientFunds",
    "NotFound",
    "InvalidArgument",
    "ReentrancyError",
    "TransactionRejected",
]


# ---------------------------------------------------------------------------------------------
# errors


class ActorError(Exception):
    """An actor call failed. `type` is the actor's exception class name (or a runtime error
    such as `OutOfCycles`), `receipt` the failed receipt (None for a simulated call) and
    `traceback` the actor's `File "...", line N, in f` lines."""

    def __init__(self, type, message, receipt=None, traceback=None):
        Exception.__init__(self, type + ": " + message)
        self.type = type
        self.message = message
        self.receipt = receipt
        self.traceback = traceback or []


class Unauthorized(ActorError):
    pass


class InsufficientFunds(ActorError):
    pass


class NotFound(ActorError):
    pass


class InvalidArgument(ActorError):
    pass


class ReentrancyError(ActorError):
    pass


ActorCallError = ActorError


class TransactionRejected(Exception):
    """The chain refused a transaction before executing it (admission: nonce, fees, limits)."""


_ERRORS = {
    "Unauthorized": Unauthorized,
    "InsufficientFunds": InsufficientFunds,
    "NotFound": NotFound,
    "InvalidArgument": InvalidArgument,
    "ReentrancyError": ReentrancyError,
}


class _HostError(Exception):
    pass


def _request(op, **fields):
    fields["op"] = op
    reply = _cowboy_bridge.request(fields)
    if "err" in reply:
        e = reply["err"]
        if e.get("kind") == "rejected":
            raise TransactionRejected(e["message"])
        raise _HostError(e["message"])
    return reply["ok"]


# ---------------------------------------------------------------------------------------------
# values


class Account:
    """A funded development account: `address` (20 bytes) and `name`."""

    def __init__(self, name, address):
        self.name = name
        self.address = address

    def __repr__(self):
        return "<Account " + self.name + " 0x" + self.address.hex() + ">"

    def __eq__(self, other):
        if isinstance(other, Account):
            return self.address == other.address
        return self.address == other

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self.address)

    @property
    def balance(self):
        return _request("balance", address=self.address)


def _plain(v):
    """Accounts and actors become their addresses; containers are converted recursively."""
    if isinstance(v, (Account, Actor)):
        return v.address
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {_plain_key(k): _plain(x) for k, x in v.items()}
    return v


def _plain_key(k):
    if isinstance(k, (Account, Actor)):
        return k.address
    if isinstance(k, tuple):
        return tuple(_plain_key(x) for x in k)
    return k


def _address(v, what):
    v = _plain(v)
    if not isinstance(v, bytes) or len(v) != 20:
        raise TypeError(what + " must be an Account, an Actor or 20 address bytes, not " + repr(v))
    return v


class Event:
    """An event: `name` (the first topic), `data` (decoded; also `value`), `topics` (the
    rest), `emitter`. Compares equal to the tuple `(name, data)`."""

    def __init__(self, d):
        self.emitter = d["emitter"]
        self.name = d["name"]
        self.topics = d["topics"]
        self.data = d["data"]
        self.value = self.data

    def __repr__(self):
        return "Event(" + repr(self.name) + ", " + repr(self.data) + ")"

    def __eq__(self, other):
        if isinstance(other, tuple) and len(other) == 2:
            return (self.name, self.data) == other
        if isinstance(other, Event):
            return (self.emitter, self.name, self.topics, self.data) == (
                other.emitter,
                other.name,
                other.topics,
                other.data,
            )
        return False


class Receipt:
    """The outcome of a transaction or timer fire.

    `ok`, `status`, `value` (decoded return value), `cycles`, `cells`, `fee`, `events`,
    `error` (message) and `error_type`, `traceback` (the actor's lines), `stdout` (what the
    actor printed), `height`, `kind` (`tx` or `timer`), `contract` (deployed address).
    """

    def __init__(self, d):
        self.ok = d["ok"]
        self.status = d["status"]
        self.value = d["value"]
        self.cycles = d["cycles"]
        self.cells = d["cells"]
        self.fee = d["fee"]
        self.events = [Event(e) for e in d["events"]]
        self.error = d["error"]
        self.error_type = d["error_type"]
        self.traceback = d["traceback"]
        self.stdout = d["stdout"]
        self.height = d["height"]
        self.kind = d["kind"]
        self.contract = d["contract"]
        self.tx_hash = d["tx_hash"]
        self.handler = d.get("handler")
        self.jobs = d["jobs"]

    def __repr__(self):
        if self.ok:
            return "<Receipt ok cycles=" + str(self.cycles) + " value=" + repr(self.value) + ">"
        return "<Receipt " + self.status + " " + repr(self.error_type) + ": " + repr(self.error) + ">"

    def event(self, name):
        """The data of the only event called `name` (AssertionError if not exactly one)."""
        found = [e for e in self.events if e.name == name]
        if len(found) != 1:
            raise AssertionError(
                "expected one " + repr(name) + " event, got " + repr([e.name for e in self.events])
            )
        return found[0].data

    def raise_for_error(self):
        if not self.ok:
            cls = _ERRORS.get(self.error_type, ActorError)
            raise cls(self.error_type or self.status, self.error or "", self, self.traceback)
        return self


class Actor:
    """A deployed actor.

    `send(handler, *args, sender=, value=)` executes a transaction in a new block and returns
    its Receipt (raising ActorError if it failed, unless `check=False`); `actor.handler(...)`
    is shorthand for `send("handler", ...)`. `call(handler, *args)` simulates a call on the
    current state (no block, no fee) and returns the handler's value. `storage(key)`,
    `balance`, `events(name)` read the chain.
    """

    def __init__(self, chain, address, receipt, source):
        self.chain = chain
        self.address = address
        self.deploy_receipt = receipt
        self.source = source

    def __repr__(self):
        return "<Actor " + self.source + " 0x" + self.address.hex() + ">"

    def __eq__(self, other):
        if isinstance(other, Actor):
            return self.address == other.address
        return self.address == other

    def __hash__(self):
        return hash(self.address)

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)

        def handler(*args, **kw):
            return self.send(name, *args, **kw)

        return handler

    def send(self, handler, *args, sender=None, value=0, cycles_limit=None, cells_limit=None, check=True):
        return self.chain.send(
            self,
            handler,
            *args,
            sender=sender,
            value=value,
            cycles_limit=cycles_limit,
            cells_limit=cells_limit,
            check=check,
        )

    def call(self, handler, *args, sender=None, value=0):
        return self.chain.call(self, handler, *args, sender=sender, value=value)

    def storage(self, key, default=None):
        return self.chain.storage(self, key, default)

    @property
    def balance(self):
        return self.chain.balance(self)

    def events(self, name=None):
        return self.chain.events(self, name)


class Chain:
    """The simulated chain of one test: the real state transition function over a fresh
    store, one block per transaction, `advance(n)` for empty blocks (timers fire in them)."""

    def __init__(self):
        self.accounts = [Account(a["name"], a["address"]) for a in _request("accounts")]

    def __repr__(self):
        return "<Chain height=" + str(self.height) + ">"

    @property
    def height(self):
        return _request("info")["height"]

    @property
    def timestamp(self):
        """Timestamp (ms) of the head block."""
        return _request("info")["timestamp"]

    def _sender(self, sender):
        if sender is None:
            return self.accounts[0].address
        return _address(sender, "sender")

    def deploy(self, source="actor.py", *args, sender=None, value=0, salt=None, cycles_limit=None, cells_limit=None):
        """Deploy `source` (a path relative to the project, or Python source text) with
        `__init__` arguments `args`; returns an Actor (ActorError if `__init__` fails)."""
        r = _request(
            "deploy",
            source=source,
            args=_plain(list(args)),
            sender=self._sender(sender),
            value=value,
            salt=salt,
            cycles_limit=cycles_limit,
            cells_limit=cells_limit,
        )
        receipt = Receipt(r["receipt"])
        receipt.raise_for_error()
        return Actor(self, r["address"], receipt, r["name"])

    def send(self, actor, handler, *args, sender=None, value=0, cycles_limit=None, cells_limit=None, check=True):
        """Execute a call transaction in a new block; returns its Receipt."""
        r = Receipt(
            _request(
                "send",
                to=_address(actor, "actor"),
                handler=handler,
                args=_plain(list(args)),
                sender=self._sender(sender),
                value=value,
                cycles_limit=cycles_limit,
                cells_limit=cells_limit,
            )
        )
        if check:
            r.raise_for_error()
        return r

    def call(self, actor, handler, *args, sender=None, value=0):
        """Simulate a call on the head state (nothing is kept); returns the handler's value."""
        r = Receipt(
            _request(
                "call",
                to=_address(actor, "actor"),
                handler=handler,
                args=_plain(list(args)),
                sender=self._sender(sender),
                value=value,
            )
        )
        r.raise_for_error()
        return r.value

    def transfer(self, to, amount, sender=None):
        """Transfer `amount` nCBY in a new block; returns the Receipt."""
        return Receipt(
            _request("transfer", to=_address(to, "to"), amount=amount, sender=self._sender(sender))
        ).raise_for_error()

    def advance(self, blocks=1):
        """Produce `blocks` empty blocks; returns the receipts of the timer fires in them."""
        return [Receipt(r) for r in _request("advance", blocks=blocks)]

    def balance(self, who):
        return _request("balance", address=_address(who, "address"))

    def nonce(self, who):
        return _request("nonce", address=_address(who, "address"))

    def storage(self, actor, key, default=None):
        """The value an actor stored under `key` (`self.storage[key]`), or `default`."""
        r = _request("storage", actor=_address(actor, "actor"), key=_plain_key(key))
        if r["found"]:
            return r["value"]
        return default

    def events(self, actor=None, name=None):
        """Events emitted so far in this test (by `actor` if given, called `name` if given)."""
        found = [Event(e) for e in _request("events", actor=None if actor is None else _address(actor, "actor"))]
        if name is not None:
            found = [e for e in found if e.name == name]
        return found

    def timer(self, timer_id):
        """The queued timer `timer_id` as a dict, or None (fired one-shot or cancelled)."""
        return _request("timer", id=timer_id)

    def receipts(self):
        """Every receipt of this test's chain so far, oldest first."""
        return [Receipt(r) for r in _request("receipts")]

    def inject_result(self, job_id, result):
        """Deliver a runner result for `job_id` (as the Result Verifier) in a new block."""
        return [Receipt(r) for r in _request("inject", job_id=job_id, result=result)]


# ---------------------------------------------------------------------------------------------
# raises


class _Raises:
    def __init__(self, expected, match):
        self.expected = expected
        self.match = match
        self.value = None
        self.type = None

    def __enter__(self):
        return self

    def __exit__(self, etype, value, tb):
        want = self.expected
        if etype is None:
            raise AssertionError("DID NOT RAISE " + _name_of(want))
        if isinstance(want, str):
            ok = isinstance(value, ActorError) and value.type == want
            if not ok and not isinstance(value, ActorError):
                ok = etype.__name__ == want
        else:
            ok = isinstance(value, want)
        if not ok:
            return False
        if self.match is not None and self.match not in str(value):
            raise AssertionError(
                "the error " + repr(str(value)) + " does not contain " + repr(self.match)
            )
        self.value = value
        self.type = etype
        return True


def _name_of(want):
    if isinstance(want, str):
        return want
    if isinstance(want, tuple):
        return " or ".join(_name_of(w) for w in want)
    return want.__name__


def raises(expected, match=None):
    """`with raises(InsufficientFunds): ...` — the block must raise `expected` (a class, a
    tuple of classes, or an actor error type name such as "ValueError"); `match` is a
    substring the message must contain. The exception is `.value` afterwards."""
    return _Raises(expected, match)


# ---------------------------------------------------------------------------------------------
# fixtures and the runner


def fixture(fn):
    """Mark `fn` as a fixture: a test (or another fixture) taking a parameter of that name
    gets its return value, or the value it yields (code after `yield` runs after the test)."""
    fn._cowboy_fixture = True
    return fn


def _builtin_fixtures():
    def chain():
        return Chain()

    def accounts(chain):
        return chain.accounts

    def deploy(chain):
        return chain.deploy

    d = {"chain": chain, "accounts": accounts, "deploy": deploy}
    for i, n in enumerate(["alice", "bob", "carol", "dave", "eve"]):
        d[n] = _account_fixture(i)
    return d


def _account_fixture(i):
    def f(accounts):
        return accounts[i]

    return f


def _is_fixture(fn):
    try:
        return fn._cowboy_fixture is True
    except AttributeError:
        return False


def _module_fixtures(module, into):
    for name, fn in _cowboy_bridge.functions(module):
        if _is_fixture(fn):
            into[name] = fn


def parametrize(names, values):
    """`@parametrize("a, b", [(1, 2), (3, 4)])` runs the test once per entry of `values`, with
    those parameters bound (ids `test_x[1-2]`, `test_x[3-4]`); the other parameters are
    fixtures. Stacked decorators multiply."""
    if isinstance(names, str):
        names = [n.strip() for n in names.split(",") if n.strip()]
    rows = []
    for v in values:
        row = tuple(v) if len(names) > 1 else (v,)
        if len(row) != len(names):
            raise ValueError("parametrize: " + repr(v) + " does not have " + str(len(names)) + " values")
        rows.append(row)

    def mark(fn):
        try:
            before = fn._cowboy_params
        except AttributeError:
            before = []
        fn._cowboy_params = before + [(list(names), rows)]
        return fn

    return mark


def _param_id(v):
    if v is None or isinstance(v, (bool, int, str)):
        s = str(v)
        if len(s) <= 24:
            return s
    return None


def _cases(fn):
    """(id suffix, bound parameters) of each run of test function `fn`."""
    try:
        groups = fn._cowboy_params
    except AttributeError:
        return [("", {})]
    cases = [("", {})]
    for names, rows in groups:
        nxt = []
        for suffix, bound in cases:
            for i, row in enumerate(rows):
                parts = [_param_id(x) for x in row]
                part = "-".join(parts) if None not in parts else names[0] + str(i)
                b = dict(bound)
                for n, x in zip(names, row):
                    b[n] = x
                nxt.append((suffix + ("-" if suffix else "") + part, b))
        cases = nxt
    # keep ids unique
    seen = {}
    out = []
    for suffix, bound in cases:
        n = seen.get(suffix, 0)
        seen[suffix] = n + 1
        out.append((suffix if n == 0 else suffix + "_" + str(n), bound))
    return out


def _tests(module):
    """(test id, function, bound parameters) of every test of `module`, in order."""
    out = []
    for name, fn in _cowboy_bridge.functions(module):
        if not name.startswith("test") or _is_fixture(fn):
            continue
        for suffix, bound in _cases(fn):
            out.append((name + ("[" + suffix + "]" if suffix else ""), fn, bound))
    return out


class _Fixtures:
    def __init__(self, defs):
        self.defs = defs
        self.values = {}
        self.teardowns = []
        self.active = []

    def get(self, name):
        if name in self.values:
            return self.values[name]
        if name not in self.defs:
            raise LookupError(
                "fixture " + repr(name) + " not found (available: " + ", ".join(sorted(self.defs)) + ")"
            )
        if name in self.active:
            raise LookupError("fixture " + repr(name) + " depends on itself: " + " -> ".join(self.active))
        self.active.append(name)
        fn = self.defs[name]
        kwargs = {p: self.get(p) for p in _cowboy_bridge.params(fn)}
        value = fn(**kwargs)
        if _is_generator(value):
            gen = value
            value = next(gen)
            self.teardowns.append(gen)
        self.active.pop()
        self.values[name] = value
        return value

    def teardown(self):
        while self.teardowns:
            gen = self.teardowns.pop()
            try:
                next(gen)
            except StopIteration:
                pass
            else:
                raise RuntimeError("a fixture yielded more than once")


def _is_generator(v):
    return type(v).__name__ == "generator"


def _collect(modules):
    """Report the tests of each module in `modules` (names imported by the caller)."""
    out = []
    for m in modules:
        out.append({"module": m.__name__, "tests": [t[0] for t in _tests(m)]})
    _request("collected", modules=out)


def _run(module, test, conftest=None):
    """Run test function `test` of `module` with its fixtures; failures propagate."""
    defs = _builtin_fixtures()
    if conftest is not None:
        _module_fixtures(conftest, defs)
    _module_fixtures(module, defs)
    fn = None
    bound = {}
    for name, f, b in _tests(module):
        if name == test:
            fn = f
            bound = b
    if fn is None:
        raise LookupError("no test " + repr(test) + " in " + module.__name__)
    fx = _Fixtures(defs)
    _request("phase", phase="setup")
    kwargs = {p: bound[p] if p in bound else fx.get(p) for p in _cowboy_bridge.params(fn)}
    _request("phase", phase="call")
    failed = False
    try:
        fn(**kwargs)
    except BaseException as e:
        failed = True
        if isinstance(e, ActorError):
            _request("phase", phase="failed", actor_type=e.type, actor_traceback=e.traceback)
        else:
            _request("phase", phase="failed")
        raise
    finally:
        if not failed:
            _request("phase", phase="teardown")
        fx.teardown()
    _request("phase", phase="done")
