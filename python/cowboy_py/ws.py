"""A small WebSocket client (RFC 6455) on the standard library, enough for JSON-RPC
subscriptions: `ws://` only, text frames, masking, fragmentation, ping/pong and close.
No extensions (no compression)."""
from __future__ import annotations

import base64
import hashlib
import os
import socket
import struct
import urllib.parse
from typing import Optional

_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class WebSocketError(Exception):
    """The connection failed or the peer broke the protocol."""


class WebSocket:
    def __init__(self, url: str, timeout: Optional[float] = 30.0):
        u = urllib.parse.urlsplit(url)
        if u.scheme != "ws":
            raise WebSocketError(f"only ws:// URLs are supported, got {url!r}")
        host, port = u.hostname or "127.0.0.1", u.port or 80
        try:
            self.sock = socket.create_connection((host, port), timeout=timeout)
        except OSError as e:
            raise WebSocketError(f"cannot connect to {url}: {e}") from None
        key = base64.b64encode(os.urandom(16))
        path = (u.path or "/") + (f"?{u.query}" if u.query else "")
        self.sock.sendall(
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key.decode()}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise WebSocketError("the server closed the connection during the handshake")
            head += chunk
        head, self._buf = head.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        if not lines[0].startswith("HTTP/1.1 101"):
            raise WebSocketError(f"upgrade refused: {lines[0]}")
        accept = base64.b64encode(hashlib.sha1(key + _GUID).digest()).decode()
        headers = {k.strip().lower(): v.strip() for k, _, v in (ln.partition(":") for ln in lines[1:])}
        if headers.get("sec-websocket-accept") != accept:
            raise WebSocketError("bad Sec-WebSocket-Accept in the handshake")
        self.closed = False

    def settimeout(self, timeout: Optional[float]) -> None:
        self.sock.settimeout(timeout)

    def _send_frame(self, opcode: int, payload: bytes) -> None:
        n = len(payload)
        head = bytes([0x80 | opcode])
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 1 << 16:
            head += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def send(self, text: str) -> None:
        if self.closed:
            raise WebSocketError("the connection is closed")
        self._send_frame(0x1, text.encode())

    def _read(self, n: int) -> bytes:
        while len(self._buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                self.closed = True
                raise WebSocketError("the connection closed")
            self._buf += chunk
        out, self._buf = self._buf[:n], self._buf[n:]
        return out

    def recv(self) -> str:
        """The next text message (raises socket.timeout when none arrives in time)."""
        parts = []
        while True:
            b0, b1 = self._read(2)
            fin, opcode, n = b0 & 0x80, b0 & 0x0F, b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            mask = self._read(4) if b1 & 0x80 else None
            payload = self._read(n)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            if opcode == 0x8:
                self.closed = True
                raise WebSocketError("the server closed the connection")
            if opcode == 0x9:
                self._send_frame(0xA, payload)
                continue
            if opcode == 0xA:
                continue
            parts.append(payload)
            if fin:
                return b"".join(parts).decode()

    def close(self) -> None:
        if not self.closed:
            try:
                self._send_frame(0x8, struct.pack(">H", 1000))
            except OSError:
                pass
            self.closed = True
        self.sock.close()
