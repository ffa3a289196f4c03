"""Typed errors of the Cowboy Python client."""


class CodecError(ValueError):
    """A byte string or value that is not a canonical encoding.

    `code` names the violated rule with the same names as the Rust codec and the TypeScript
    SDK (e.g. ``NON_MINIMAL_VARINT``, ``TRAILING_BYTES``).
    """

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code


class SignatureError(ValueError):
    """A signature or key that cannot be used (``HIGH_S``, ``BAD_RECOVERY_ID``, ...)."""

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code
