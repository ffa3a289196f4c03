"""hashlib for the PVM: sha256, sha3_256, keccak_256 and blake2b.

The digests are computed natively (the PVM injects the helper module `_native` before this
body runs) and metered per whitepaper §3.5: SHA-256 500 + 8 per 64-byte block, Keccak
(sha3_256 and keccak_256) 6 per 32 bytes, BLAKE2b 500 + 8 per 128-byte block.

`keccak_256` is Ethereum's Keccak-256 (the original Keccak padding, as used for addresses
and transaction hashes); `sha3_256` is the NIST SHA3-256 of CPython's hashlib. They differ.

A hash object keeps the bytes fed to it and hashes them when a digest is asked for, so each
`digest()` / `hexdigest()` call is charged for all the data fed so far.
"""

__all__ = ['new', 'sha256', 'sha3_256', 'keccak_256', 'blake2b', 'algorithms_guaranteed',
           'algorithms_available']

algorithms_guaranteed = frozenset(('sha256', 'sha3_256', 'blake2b'))
algorithms_available = frozenset(('sha256', 'sha3_256', 'blake2b', 'keccak_256'))

_INFO = {
    # name: (digest_size, block_size)
    'sha256': (32, 64),
    'sha3_256': (32, 136),
    'keccak_256': (32, 136),
    'blake2b': (64, 128),
}


def _data(data):
    if isinstance(data, str):
        raise TypeError('Strings must be encoded before hashing')
    if isinstance(data, (bytes, bytearray)):
        return bytes(data)
    raise TypeError("object supporting the buffer API required")


class _Hash:
    __slots__ = ('name', 'digest_size', 'block_size', '_buf', '_key', '_salt', '_person')

    def __init__(self, name, data, digest_size, key=b'', salt=b'', person=b''):
        self.name = name
        self.digest_size = digest_size
        self.block_size = _INFO[name][1]
        self._buf = bytearray()
        self._key = key
        self._salt = salt
        self._person = person
        if data is not None:
            self.update(data)

    def update(self, data):
        self._buf += _data(data)

    def digest(self):
        return _native.digest(self.name, bytes(self._buf), self.digest_size, self._key,
                              self._salt, self._person)

    def hexdigest(self):
        return self.digest().hex()

    def copy(self):
        other = _Hash(self.name, None, self.digest_size, self._key, self._salt, self._person)
        other._buf = bytearray(self._buf)
        return other

    def __repr__(self):
        return '<%s _hashlib.HASH object>' % (self.name,)


def sha256(data=b'', *, usedforsecurity=True):
    return _Hash('sha256', data, 32)


def sha3_256(data=b'', *, usedforsecurity=True):
    return _Hash('sha3_256', data, 32)


def keccak_256(data=b'', *, usedforsecurity=True):
    return _Hash('keccak_256', data, 32)


def blake2b(data=b'', *, digest_size=64, key=b'', salt=b'', person=b'', usedforsecurity=True):
    if not 1 <= digest_size <= 64:
        raise ValueError('digest_size must be between 1 and 64 bytes')
    if len(key) > 64:
        raise ValueError('maximum key length is 64 bytes')
    if len(salt) > 16:
        raise ValueError('maximum salt length is 16 bytes')
    if len(person) > 16:
        raise ValueError('maximum person length is 16 bytes')
    return _Hash('blake2b', data, digest_size, _data(key), _data(salt), _data(person))


_CONSTRUCTORS = {'sha256': sha256, 'sha3_256': sha3_256, 'keccak_256': keccak_256,
                 'blake2b': blake2b}


def new(name, data=b'', **kwargs):
    ctor = _CONSTRUCTORS.get(name.lower() if isinstance(name, str) else name)
    if ctor is None:
        raise ValueError('unsupported hash type ' + str(name))
    return ctor(data, **kwargs)
