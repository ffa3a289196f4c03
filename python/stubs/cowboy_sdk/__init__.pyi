"""Type stubs of `cowboy_sdk`, the actor SDK built into the Cowboy PVM (it is never
imported from disk: these stubs only let editors and type checkers autocomplete and check
actor code). Installed with cowboy-py (`pip install ./python`) as `cowboy_sdk/__init__.pyi`; in this
repository point the type checker at python/stubs (pyright `stubPath`, mypy `MYPYPATH`).

Values stored, sent, emitted or returned cross the boundary in canonical CBOR: None, bool,
int, float, str, bytes, list, tuple, dict, set/frozenset (see `Value`).
"""
from typing import Any, Callable, Generic, Iterable, Iterator, Optional, Type, TypeVar, Union, overload

_T = TypeVar("_T")
_C = TypeVar("_C", bound=type)
_F = TypeVar("_F", bound=Callable[..., Any])

#: A value with a canonical encoding.
Value = Union[None, bool, int, float, str, bytes, list, tuple, dict, set, frozenset]
#: A 20-byte account or actor address.
Address = bytes
#: A 32-byte timer id.
TimerId = bytes

__all__: list[str]

# ---------------------------------------------------------------- typed errors

class ActorError(Exception):
    """Base of the SDK's typed errors; a failed call reports the class name as its type."""
    code: str

class Unauthorized(ActorError): ...
class InsufficientFunds(ActorError): ...
class NotFound(ActorError): ...
class InvalidArgument(ActorError): ...
class ReentrancyError(ActorError): ...

def require(condition: object, message: str = "requirement failed", error: Type[Exception] = ActorError) -> None:
    """Raise `error(message)` unless `condition` holds."""

# ---------------------------------------------------------------- storage

class Storage:
    """The actor's persistent key/value mapping; reads return fresh copies (assign changes back)."""
    def __getitem__(self, key: Value) -> Any: ...
    def __setitem__(self, key: Value, value: Value) -> None: ...
    def __delitem__(self, key: Value) -> None: ...
    def __contains__(self, key: Value) -> bool: ...
    def get(self, key: Value, default: Any = None) -> Any: ...
    def set(self, key: Value, value: Value) -> None: ...
    def delete(self, key: Value) -> None: ...
    def setdefault(self, key: Value, default: Value = None) -> Any: ...
    @overload
    def pop(self, key: Value) -> Any: ...
    @overload
    def pop(self, key: Value, default: _T) -> Any | _T: ...

storage: Storage

# ---------------------------------------------------------------- call context

class Context:
    """The call context; every read is a host call (100 cycles)."""
    @property
    def sender(self) -> Address: ...
    @property
    def origin(self) -> Address: ...
    @property
    def value(self) -> int: ...
    @property
    def address(self) -> Address: ...
    @property
    def balance(self) -> int: ...
    @property
    def block_height(self) -> int: ...
    @property
    def block_timestamp(self) -> int: ...
    @property
    def chain_id(self) -> int: ...
    @property
    def depth(self) -> int: ...

ctx: Context

def actor(cls: _C) -> _C:
    """Class decorator marking the actor class: gives it `self.storage` and `self.ctx`."""

# ---------------------------------------------------------------- effects

def send(to: Address, handler: str, *args: Value, value: int = 0) -> None:
    """Send a message calling `handler(*args)` on actor `to`, attaching `value`."""

def emit(event: str, data: Value = None, *topics: Value) -> None:
    """Emit an event: topics are the event name then `topics`; data is encoded canonically."""

def set_timer(height: int, handler: str, data: Value = None) -> TimerId:
    """Call `handler(data)` on this actor at block `height`; returns the 32-byte timer id."""

def set_interval(every_n_blocks: int, handler: str, data: Value = None) -> TimerId:
    """Call `handler(data)` every `every_n_blocks` blocks; returns the timer id."""

def cancel_timer(timer_id: TimerId) -> None:
    """Cancel a pending timer of this actor."""

# ---------------------------------------------------------------- randomness, hashing, signatures

def vrf(label: Union[str, bytes]) -> bytes:
    """32 bytes of randomness: HKDF(beacon, label), distinct per actor and label."""

def vrf_int(label: Union[str, bytes], n: int) -> int:
    """An integer in range(n) from `vrf(label)`."""

def sha256(data: bytes) -> bytes: ...
def keccak256(data: bytes) -> bytes: ...
def verify_secp256k1(public_key: bytes, message_hash: bytes, signature: bytes) -> bool: ...
def ecrecover(message_hash: bytes, signature: bytes) -> Optional[Address]:
    """The 20-byte address that signed `message_hash` (65-byte r‖s‖v), or None."""
def verify_ed25519(public_key: bytes, message: bytes, signature: bytes) -> bool: ...
def verify_bls(public_key: bytes, message: bytes, signature: bytes, namespace: bytes = b"") -> bool: ...
def verify_eip712(signer: Address, domain_separator: bytes, struct_hash: bytes, signature: bytes) -> bool:
    """True if `signature` over the EIP-712 digest was made by Ethereum address `signer`."""

def encode(value: Value) -> bytes:
    """Canonical CBOR of `value`."""

def decode(data: bytes) -> Any:
    """The value of canonical CBOR bytes."""

def address(text: str) -> Address:
    """A 20-byte address from hex text (with or without 0x)."""

# ---------------------------------------------------------------- collections

class OrderedSet(Generic[_T]):
    """A set that iterates in insertion order."""
    def __init__(self, items: Iterable[_T] = ()) -> None: ...
    def add(self, x: _T) -> None: ...
    def discard(self, x: _T) -> None: ...
    def remove(self, x: _T) -> None: ...
    def __contains__(self, x: object) -> bool: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[_T]: ...
    def to_list(self) -> list[_T]: ...

# ---------------------------------------------------------------- reentrancy

class ReentrancyGuard:
    """A storage-backed lock: acquire()/release() across messages, or `with guard:` for one handler."""
    def __init__(self, name: str = "default") -> None: ...
    def locked(self) -> bool: ...
    def acquire(self) -> None: ...
    def release(self) -> None: ...
    def __enter__(self) -> "ReentrancyGuard": ...
    def __exit__(self, exc_type: object, exc: object, tb: object) -> bool: ...

def nonreentrant(fn: _F) -> _F:
    """Decorator: the handler fails with ReentrancyError if entered while already running."""

# ---------------------------------------------------------------- runner jobs (CIP-2)

#: The Result Verifier system actor (0x…03), the only sender of job results.
RESULT_VERIFIER: Address

class _Runner:
    """Off-chain jobs: `runner.submit(...)` and the `@runner.continuation` decorator."""
    def submit(self, job_type: str, spec: Value, callback: str, max_price: int, timeout_blocks: int,
               tip: int = 0) -> bytes:
        """Submit a job; its verified result arrives later as `callback(job_id, result)`.
        `max_price + tip` must be covered by the actor's balance. Returns the 32-byte job id."""
    def pending(self, job_id: bytes) -> bool:
        """True while a submitted job can still deliver its result: not delivered yet and its
        deadline (submission height + `timeout_blocks`) not passed."""
    def continuation(self, fn: _F) -> _F:
        """Decorator for a job-result handler `fn(self, job_id, result)`: runs only when called
        by the Result Verifier for a pending job of this actor naming this handler, once per job."""

runner: _Runner
