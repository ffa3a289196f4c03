"""Type stubs of `cowboy_test`, the test API of `cowboy test` (docs/testing.md).

The module itself exists only inside the PVM while `cowboy test` runs a test; these stubs
let editors autocomplete and type-check test files.
"""

from typing import Any, Callable, Generic, Iterator, Optional, Tuple, Type, TypeVar, Union, overload

_F = TypeVar("_F", bound=Callable[..., Any])
_E = TypeVar("_E", bound=BaseException)

Address = bytes
AddressLike = Union["Account", "Actor", bytes]

class ActorError(Exception):
    """An actor call failed: `type` is the actor's exception class name (or `OutOfCycles`, …)."""

    type: str
    message: str
    receipt: Optional["Receipt"]
    traceback: list[str]
    def __init__(
        self, type: str, message: str, receipt: Optional["Receipt"] = ..., traceback: Optional[list[str]] = ...
    ) -> None: ...

ActorCallError = ActorError

class Unauthorized(ActorError): ...
class InsufficientFunds(ActorError): ...
class NotFound(ActorError): ...
class InvalidArgument(ActorError): ...
class ReentrancyError(ActorError): ...

class TransactionRejected(Exception):
    """The chain refused a transaction before executing it (nonce, fees, limits)."""

class Account:
    """A funded development account; compares equal to its 20 address bytes."""

    name: str
    address: Address
    @property
    def balance(self) -> int: ...

class Event:
    emitter: Address
    name: str
    topics: list[bytes]
    data: Any
    value: Any

class Receipt:
    ok: bool
    status: str
    value: Any
    cycles: int
    cells: int
    fee: int
    events: list[Event]
    error: Optional[str]
    error_type: Optional[str]
    traceback: list[str]
    stdout: str
    height: int
    kind: str
    contract: Optional[Address]
    tx_hash: bytes
    handler: Optional[str]
    jobs: list[dict[str, Any]]
    def event(self, name: str) -> Any: ...
    def raise_for_error(self) -> "Receipt": ...

class Actor:
    """A deployed actor; `actor.handler(*args, sender=, value=)` sends a transaction."""

    chain: "Chain"
    address: Address
    deploy_receipt: Receipt
    source: str
    def send(
        self,
        handler: str,
        *args: Any,
        sender: Optional[AddressLike] = ...,
        value: int = ...,
        cycles_limit: Optional[int] = ...,
        cells_limit: Optional[int] = ...,
        check: bool = ...,
    ) -> Receipt: ...
    def call(self, handler: str, *args: Any, sender: Optional[AddressLike] = ..., value: int = ...) -> Any: ...
    def storage(self, key: Any, default: Any = ...) -> Any: ...
    @property
    def balance(self) -> int: ...
    def events(self, name: Optional[str] = ...) -> list[Event]: ...
    def __getattr__(self, handler: str) -> Callable[..., Receipt]: ...

class Chain:
    """The simulated chain of one test."""

    accounts: list[Account]
    @property
    def height(self) -> int: ...
    @property
    def timestamp(self) -> int: ...
    def deploy(
        self,
        source: str = ...,
        *args: Any,
        sender: Optional[AddressLike] = ...,
        value: int = ...,
        salt: Optional[bytes] = ...,
        cycles_limit: Optional[int] = ...,
        cells_limit: Optional[int] = ...,
    ) -> Actor: ...
    def send(
        self,
        actor: AddressLike,
        handler: str,
        *args: Any,
        sender: Optional[AddressLike] = ...,
        value: int = ...,
        cycles_limit: Optional[int] = ...,
        cells_limit: Optional[int] = ...,
        check: bool = ...,
    ) -> Receipt: ...
    def call(
        self, actor: AddressLike, handler: str, *args: Any, sender: Optional[AddressLike] = ..., value: int = ...
    ) -> Any: ...
    def transfer(self, to: AddressLike, amount: int, sender: Optional[AddressLike] = ...) -> Receipt: ...
    def advance(self, blocks: int = ...) -> list[Receipt]: ...
    def balance(self, who: AddressLike) -> int: ...
    def nonce(self, who: AddressLike) -> int: ...
    def storage(self, actor: AddressLike, key: Any, default: Any = ...) -> Any: ...
    def events(self, actor: Optional[AddressLike] = ..., name: Optional[str] = ...) -> list[Event]: ...
    def timer(self, timer_id: bytes) -> Optional[dict[str, Any]]: ...
    def receipts(self) -> list[Receipt]: ...
    def inject_result(self, job_id: bytes, result: Any) -> list[Receipt]: ...

class _Raises(Generic[_E]):
    value: _E
    type: Type[_E]
    def __enter__(self) -> "_Raises[_E]": ...
    def __exit__(self, etype: Any, value: Any, tb: Any) -> bool: ...

@overload
def raises(expected: Type[_E], match: Optional[str] = ...) -> _Raises[_E]: ...
@overload
def raises(expected: Tuple[Type[BaseException], ...], match: Optional[str] = ...) -> _Raises[BaseException]: ...
@overload
def raises(expected: str, match: Optional[str] = ...) -> _Raises[ActorError]: ...
def parametrize(names: Union[str, list[str]], values: list[Any]) -> Callable[[_F], _F]:
    """Run the test once per entry of `values` with those parameters bound."""

def fixture(fn: _F) -> _F:
    """Mark a fixture (its name is what tests take as a parameter; it may `yield`)."""
