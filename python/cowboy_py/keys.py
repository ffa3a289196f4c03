"""secp256k1 keys and transaction signatures (spec §1.1, §2.5): RFC 6979 deterministic
nonces, low-S, signature = r ‖ s ‖ v with v the recovery id (0 or 1)."""
from __future__ import annotations

from dataclasses import replace

import coincurve

from .codec import Transaction, keccak256
from .errors import SignatureError

_N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141


def address_of_public_key(uncompressed: bytes) -> bytes:
    """Last 20 bytes of keccak256 of the 64-byte public key (without the 0x04 prefix)."""
    if len(uncompressed) == 65:
        uncompressed = uncompressed[1:]
    return keccak256(uncompressed)[-20:]


class PrivateKey:
    def __init__(self, secret: bytes):
        if len(secret) != 32 or not 0 < int.from_bytes(secret, "big") < _N:
            raise SignatureError("INVALID_SECRET_KEY", "a secret key is 32 bytes in [1, n-1]")
        self._key = coincurve.PrivateKey(secret)

    @property
    def address(self) -> bytes:
        return address_of_public_key(self._key.public_key.format(compressed=False))

    def sign_hash(self, digest: bytes) -> bytes:
        """65-byte r ‖ s ‖ v over a 32-byte prehash (libsecp256k1 produces low-S)."""
        if len(digest) != 32:
            raise SignatureError("INVALID_SIGNATURE", "the signed message must be a 32-byte hash")
        return self._key.sign_recoverable(digest, hasher=None)

    def sign_transaction(self, tx: Transaction) -> Transaction:
        if tx.sender != self.address:
            raise SignatureError("FROM_MISMATCH", "the transaction's from is not this key's address")
        return replace(tx, signature=self.sign_hash(tx.signing_hash()))


def recover_address(digest: bytes, signature: bytes) -> bytes:
    if len(signature) != 65:
        raise SignatureError("INVALID_SIGNATURE", "a signature is 65 bytes")
    if signature[64] > 1:
        raise SignatureError("INVALID_RECOVERY_ID", f"recovery id {signature[64]} is not 0 or 1")
    r = int.from_bytes(signature[:32], "big")
    s = int.from_bytes(signature[32:64], "big")
    if not (0 < r < _N and 0 < s < _N):
        raise SignatureError("INVALID_SIGNATURE", "r and s must be in [1, n-1]")
    if s > _N // 2:
        raise SignatureError("HIGH_S", "s is in the upper half of the curve order")
    try:
        public = coincurve.PublicKey.from_signature_and_message(signature, digest, hasher=None)
    except Exception as e:  # coincurve raises plain exceptions for unrecoverable signatures
        raise SignatureError("INVALID_SIGNATURE", f"no public key recovers from this signature: {e}") from None
    return address_of_public_key(public.format(compressed=False))


def recover_signer(tx: Transaction) -> bytes:
    return recover_address(tx.signing_hash(), tx.signature)


def verify_transaction(tx: Transaction) -> None:
    """Raises SignatureError unless the primary and every additional signature are valid."""
    digest = tx.signing_hash()
    if recover_address(digest, tx.signature) != tx.sender:
        raise SignatureError("SIGNER_MISMATCH", "the signature does not recover the from address")
    for address, signature in tx.additional_signers:
        if recover_address(digest, signature) != address:
            raise SignatureError("ADDITIONAL_SIGNER_MISMATCH", f"additional signer 0x{address.hex()} did not sign")
