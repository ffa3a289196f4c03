"""cowboy_sdk: the actor SDK of the Cowboy PVM (built in; never imported from disk).

Everything here is a thin layer over the native module `pvm_host`, whose functions are
metered by the PVM (see docs/metering.md). Values stored, sent or returned cross the
boundary in canonical CBOR: None, bool, int, float, str, bytes, list, tuple, dict, set.
"""

import pvm_host as _h

__all__ = [
    "actor", "storage", "Storage", "ctx", "Context",
    "send", "emit", "set_timer", "set_interval", "cancel_timer",
    "vrf", "vrf_int", "sha256", "keccak256",
    "verify_secp256k1", "verify_ed25519", "verify_bls", "ecrecover", "verify_eip712",
    "encode", "decode", "address", "OrderedSet",
    "ReentrancyGuard", "nonreentrant", "require",
    "ActorError", "Unauthorized", "InsufficientFunds", "NotFound", "InvalidArgument",
    "ReentrancyError", "runner", "RESULT_VERIFIER",
]


# ---------------------------------------------------------------- typed errors

class ActorError(Exception):
    """Base of the SDK's typed errors; the failed call reports the class name as its type."""

    code = "ACTOR_ERROR"


class Unauthorized(ActorError):
    code = "UNAUTHORIZED"


class InsufficientFunds(ActorError):
    code = "INSUFFICIENT_FUNDS"


class NotFound(ActorError):
    code = "NOT_FOUND"


class InvalidArgument(ActorError):
    code = "INVALID_ARGUMENT"


class ReentrancyError(ActorError):
    code = "REENTRANCY"


def require(condition, message="requirement failed", error=ActorError):
    """Raise `error(message)` unless `condition` holds."""
    if not condition:
        raise error(message)


# ---------------------------------------------------------------- storage

class Storage:
    """The actor's persistent key/value mapping.

    Keys and values are any canonical-encodable values; reading returns a fresh copy, so
    assign a changed list or dict back: `xs = s["xs"]; xs.append(1); s["xs"] = xs`.
    """

    __slots__ = ()

    def __getitem__(self, key):
        return _h.load(key)

    def __setitem__(self, key, value):
        _h.store(key, value)

    def __delitem__(self, key):
        if not _h.contains(key):
            raise KeyError(key)
        _h.remove(key)

    def __contains__(self, key):
        return _h.contains(key)

    def get(self, key, default=None):
        return _h.load(key, default)

    def set(self, key, value):
        _h.store(key, value)

    def delete(self, key):
        _h.remove(key)

    def setdefault(self, key, default=None):
        if _h.contains(key):
            return _h.load(key)
        _h.store(key, default)
        return default

    def pop(self, key, *default):
        if _h.contains(key):
            value = _h.load(key)
            _h.remove(key)
            return value
        if default:
            return default[0]
        raise KeyError(key)


storage = Storage()


# ---------------------------------------------------------------- call context

class Context:
    """The call context; every read is a host call (100 cycles)."""

    __slots__ = ()

    @property
    def sender(self):
        return _h.sender()

    @property
    def origin(self):
        return _h.origin()

    @property
    def value(self):
        return _h.value()

    @property
    def address(self):
        return _h.address()

    @property
    def balance(self):
        return _h.balance()

    @property
    def block_height(self):
        return _h.block_height()

    @property
    def block_timestamp(self):
        return _h.block_timestamp()

    @property
    def chain_id(self):
        return _h.chain_id()

    @property
    def depth(self):
        return _h.depth()


ctx = Context()


def actor(cls):
    """Class decorator marking the actor class: gives it `self.storage` and `self.ctx`."""
    cls.storage = storage
    cls.ctx = ctx
    cls.__cowboy_actor__ = True
    return cls


# ---------------------------------------------------------------- effects

def send(to, handler, *args, value=0):
    """Send a message calling `handler(*args)` on actor `to`, attaching `value`."""
    _h.send(to, handler, list(args), value)


def emit(event, data=None, *topics):
    """Emit an event: topics are the event name then `topics`; data is encoded canonically."""
    _h.emit([event] + list(topics), _h.encode(data))


def set_timer(height, handler, data=None):
    """Call `handler(data)` on this actor at block `height`; returns the 32-byte timer id."""
    return _h.set_timer(height, handler, data)


def set_interval(every_n_blocks, handler, data=None):
    """Call `handler(data)` every `every_n_blocks` blocks; returns the timer id."""
    return _h.set_interval(every_n_blocks, handler, data)


def cancel_timer(timer_id):
    """Cancel a pending timer of this actor."""
    _h.cancel_timer(timer_id)


# ---------------------------------------------------------------- randomness, hashing, signatures

def vrf(label):
    """32 bytes of randomness: HKDF(beacon, label), distinct per actor and label."""
    return _h.vrf(label)


def vrf_int(label, n):
    """An integer in range(n) from `vrf(label)` (bias below 2**-200 for n < 2**56)."""
    if n <= 0:
        raise ValueError("n must be positive")
    return int.from_bytes(_h.vrf(label), "big") % n


def sha256(data):
    return _h.sha256(data)


def keccak256(data):
    return _h.keccak256(data)


def verify_secp256k1(public_key, message_hash, signature):
    return _h.verify_secp256k1(public_key, message_hash, signature)


def ecrecover(message_hash, signature):
    """The 20-byte address that signed `message_hash` (65-byte r‖s‖v), or None."""
    return _h.ecrecover(message_hash, signature)


def verify_ed25519(public_key, message, signature):
    return _h.verify_ed25519(public_key, message, signature)


def verify_bls(public_key, message, signature, namespace=b""):
    return _h.verify_bls(public_key, message, signature, namespace)


def verify_eip712(signer, domain_separator, struct_hash, signature):
    """True if `signature` over the EIP-712 digest was made by Ethereum address `signer`."""
    digest = _h.keccak256(b"\x19\x01" + domain_separator + struct_hash)
    return _h.ecrecover(digest, signature) == signer


def encode(value):
    return _h.encode(value)


def decode(data):
    return _h.decode(data)


def address(text):
    """A 20-byte address from hex text (with or without 0x)."""
    if text.startswith("0x") or text.startswith("0X"):
        text = text[2:]
    raw = bytes.fromhex(text)
    if len(raw) != 20:
        raise ValueError("an address is 20 bytes")
    return raw


# ---------------------------------------------------------------- collections

class OrderedSet:
    """A set that iterates in insertion order (canonical as a sorted CBOR set via `to_set`)."""

    def __init__(self, items=()):
        self._d = {}
        for x in items:
            self._d[x] = None

    def add(self, x):
        self._d[x] = None

    def discard(self, x):
        if x in self._d:
            del self._d[x]

    def remove(self, x):
        del self._d[x]

    def __contains__(self, x):
        return x in self._d

    def __len__(self):
        return len(self._d)

    def __iter__(self):
        return iter(list(self._d))

    def __eq__(self, other):
        if isinstance(other, OrderedSet):
            return list(self._d) == list(other._d)
        return NotImplemented

    def __repr__(self):
        return "OrderedSet(" + repr(list(self._d)) + ")"

    def to_list(self):
        return list(self._d)


# ---------------------------------------------------------------- reentrancy

class ReentrancyGuard:
    """A storage-backed lock. Held across messages with acquire()/release(), or for one
    handler with `with guard:` / `@nonreentrant`."""

    def __init__(self, name="default"):
        self._key = ("__cowboy_guard__", name)

    def locked(self):
        return _h.contains(self._key)

    def acquire(self):
        if _h.contains(self._key):
            raise ReentrancyError("reentrant call: guard '" + self._key[1] + "' is held")
        _h.store(self._key, True)

    def release(self):
        _h.remove(self._key)

    def __enter__(self):
        self.acquire()
        return self

    def __exit__(self, exc_type, exc, tb):
        self.release()
        return False


def nonreentrant(fn):
    """Decorator: the handler fails with ReentrancyError if entered while already running."""
    guard = ReentrancyGuard(fn.__name__)

    def wrapper(*args, **kwargs):
        with guard:
            return fn(*args, **kwargs)

    wrapper.__name__ = fn.__name__
    return wrapper


# ---------------------------------------------------------------- runner jobs (CIP-2)

RESULT_VERIFIER = b"\x00" * 19 + b"\x03"
"""The Result Verifier system actor (0x…03), the only sender of job results."""


class _Runner:
    """Off-chain jobs: `runner.submit(...)` and the `@runner.continuation` decorator."""

    def submit(self, job_type, spec, callback, max_price, timeout_blocks, tip=0):
        """Submit a job; its verified result arrives later as `callback(job_id, result)`.

        `max_price + tip` must be covered by the actor's balance (the state transition
        escrows it). Returns the 32-byte job id.
        """
        job = _h.submit_job(job_type, spec, callback, max_price, timeout_blocks, tip)
        # the chain accepts a result up to and including the deadline block, then expires the job
        _h.store(("__cowboy_job__", job), (callback, _h.block_height() + timeout_blocks))
        return job

    def pending(self, job_id):
        """True while a submitted job can still deliver its result: not delivered yet and its
        deadline (submission height + `timeout_blocks`) not passed."""
        entry = _h.load(("__cowboy_job__", job_id), None)
        return entry is not None and _h.block_height() <= entry[1]

    def continuation(self, fn):
        """Decorator for a job-result handler `fn(self, job_id, result)`: it runs only when
        called by the Result Verifier for a pending job of this actor naming this handler,
        and each job's result is accepted once."""
        name = fn.__name__

        def wrapper(self, job_id, result):
            if _h.sender() != RESULT_VERIFIER:
                raise Unauthorized("job results come from the Result Verifier only")
            key = ("__cowboy_job__", job_id)
            entry = _h.load(key, None)
            if entry is None or entry[0] != name:
                raise NotFound("no pending job for this handler")
            _h.remove(key)
            return fn(self, job_id, result)

        wrapper.__name__ = name
        return wrapper


runner = _Runner()
