"""A minimal HTTP/1.1 client for the benchmarks: one keep-alive connection, little parsing."""

from __future__ import annotations

import json
import socket
import time
from typing import Any


class Client:
    """One keep-alive HTTP/1.1 connection to the server.

    A minimal client over a plain socket: the clients share the machine's cores with the server,
    and ``http.client`` spends more CPU parsing headers than the whole of this does.
    """

    def __init__(self, port: int) -> None:
        self.port = port
        self.sock: socket.socket | None = None
        self.buffer = b""
        self.requests = 0

    def _connect(self) -> socket.socket:
        self.close()
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=30)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock, self.buffer = sock, b""
        return sock

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None

    def _read_until(self, sock: socket.socket, marker: bytes) -> int:
        while (end := self.buffer.find(marker)) < 0:
            chunk = sock.recv(65536)
            if not chunk:
                raise ConnectionError("the server closed the connection")
            self.buffer += chunk
        return end

    def _exchange(self, request: bytes) -> tuple[int, bytes, bool]:
        sock = self.sock or self._connect()
        sock.sendall(request)
        end = self._read_until(sock, b"\r\n\r\n")
        head = self.buffer[:end].decode("latin-1").split("\r\n")
        self.buffer = self.buffer[end + 4 :]
        status = int(head[0].split(" ", 2)[1])
        length, close = 0, False
        for line in head[1:]:
            name, _, value = line.partition(":")
            name = name.strip().lower()
            if name == "content-length":
                length = int(value)
            elif name == "connection" and value.strip().lower() == "close":
                close = True
        while len(self.buffer) < length:
            chunk = sock.recv(65536)
            if not chunk:
                raise ConnectionError("the server closed the connection")
            self.buffer += chunk
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        return status, body, close

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, Any, float]:
        """Send a request; return the status, the parsed body and the time taken (ms)."""
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Accept: application/json"]
        payload = b""
        if body is not None:
            payload = json.dumps(body).encode()
            lines.append("Content-Type: application/json")
        lines.append(f"Content-Length: {len(payload)}")
        if token:
            lines.append(f"Authorization: Token {token}")
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        request = ("\r\n".join(lines) + "\r\n\r\n").encode() + payload
        for attempt in range(2):
            started = time.perf_counter()
            try:
                status, raw, close = self._exchange(request)
            except OSError:
                if attempt:
                    raise
                self._connect()  # the server closed a kept-alive connection: reconnect once
                continue
            elapsed = (time.perf_counter() - started) * 1000
            self.requests += 1
            if close:
                self.close()
            return status, json.loads(raw) if raw else None, elapsed
        raise AssertionError("unreachable")
