"""BIP-39 seeds and BIP-32 derivation of secp256k1 keys (the same rules as ts/sdk/src/keys):
seed = PBKDF2-HMAC-SHA512(NFKD(mnemonic), "mnemonic" + NFKD(passphrase), 2048 rounds);
hardened and normal child derivation; Cowboy's default path m/44'/60'/0'/0/i.

Only derivation is here (no word-list checks): give it a mnemonic you got from a wallet,
`cowboy keys new --mnemonic` or the devnet.
"""
from __future__ import annotations

import hashlib
import hmac
import unicodedata

import coincurve

from .errors import SignatureError

_N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
HARDENED = 0x8000_0000

#: The devnet's public development mnemonic (`cowboy devnet` prefunds m/44'/60'/0'/0/i of it).
#: Public: never hold anything of value with it.
DEVNET_MNEMONIC = "legend cinnamon usage impose glass beef stadium happy pudding destroy split erosion"


def mnemonic_to_seed(mnemonic: str, passphrase: str = "") -> bytes:
    """The 64-byte BIP-39 seed of a mnemonic (words separated by single spaces after NFKD)."""
    words = " ".join(unicodedata.normalize("NFKD", mnemonic).split())
    salt = "mnemonic" + unicodedata.normalize("NFKD", passphrase)
    return hashlib.pbkdf2_hmac("sha512", words.encode(), salt.encode(), 2048)


def parse_path(path: str) -> list[int]:
    """`m/44'/60'/0'/0/0` → child indices (hardened ones with the top bit set)."""
    parts = path.split("/")
    if parts[0] != "m":
        raise SignatureError("INVALID_PATH", f"a derivation path starts with m/, got {path!r}")
    out = []
    for p in parts[1:]:
        hardened = p.endswith("'") or p.endswith("h")
        digits = p[:-1] if hardened else p
        if not digits.isdigit() or (len(digits) > 1 and digits[0] == "0") or int(digits) >= HARDENED:
            raise SignatureError("INVALID_PATH", f"bad path component {p!r} in {path!r}")
        out.append(int(digits) + (HARDENED if hardened else 0))
    return out


def derive_secret_key(seed: bytes, path: str) -> bytes:
    """The secret key at `path` below the BIP-32 master key of `seed`."""
    digest = hmac.new(b"Bitcoin seed", seed, hashlib.sha512).digest()
    key, chain = digest[:32], digest[32:]
    if not 0 < int.from_bytes(key, "big") < _N:
        raise SignatureError("INVALID_SECRET_KEY", "the master key is out of range")
    for index in parse_path(path):
        if index >= HARDENED:
            data = b"\x00" + key + index.to_bytes(4, "big")
        else:
            data = coincurve.PrivateKey(key).public_key.format(compressed=True) + index.to_bytes(4, "big")
        digest = hmac.new(chain, data, hashlib.sha512).digest()
        tweak = int.from_bytes(digest[:32], "big")
        child = (tweak + int.from_bytes(key, "big")) % _N
        if tweak >= _N or child == 0:
            raise SignatureError("INVALID_SECRET_KEY", f"child {index} is invalid; use the next index")
        key, chain = child.to_bytes(32, "big"), digest[32:]
    return key
