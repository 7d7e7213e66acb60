"""A Web Push service of the tests' own, on loopback: it takes what the server pushes, checks the
VAPID signature (RFC 8292) with the server's public key and decrypts the payload (RFC 8291,
aes128gcm) with the subscription's private key, as a browser's push service and browser would.

The subscription's ECDH key pair and auth secret are made here; ``subscription`` is what a
browser's ``PushSubscription.toJSON()`` gives, to register with ``POST /api/push/devices``.

Plain http on 127.0.0.1 by default (the server reaches it only with
``OUTSIDE_LOOPBACK_FOR_TESTS``); with ``tls`` (``tls_context``: a certificate for ``name`` from a
CA of the test's own) it serves https under that name, which the test's resolver
(tests/games/resolver.py) points at loopback, and records each connection and the name each
TLS client asked for (SNI).
"""

from __future__ import annotations

import base64
import json
import os
import socket
import ssl
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import http_ece
import trustme
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def tls_context(ca: trustme.CA, name: str) -> ssl.SSLContext:
    """A server's TLS context with a certificate for ``name`` only, issued by ``ca``."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ca.issue_cert(name).configure_cert(context)
    return context


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    """One push as the service got it, decrypted and its VAPID token checked."""

    path: str
    headers: dict[str, str]
    message: dict[str, Any]
    claims: dict[str, Any]
    vapid_key: str
    #: Bytes of the decrypted payload.
    plain_size: int = 0


@dataclass
class PushService:
    """The service: ``answer`` is the status it replies with (201; 410 for a gone one); with an
    ``inbox`` folder, each message it decrypts is also written there as a JSON file."""

    vapid_public_key: str
    answer: int = 201
    received: list[Received] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    private_key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth_secret: bytes = field(default_factory=lambda: os.urandom(16))
    server: ThreadingHTTPServer | None = None
    inbox: Path | None = None
    #: https under ``name`` with this context; else http on 127.0.0.1.
    tls: ssl.SSLContext | None = None
    name: str | None = None
    #: Where a 3xx answer points (``Location``).
    location: str | None = None
    connections: int = 0
    server_names: list[str | None] = field(default_factory=list)

    @property
    def url(self) -> str:
        assert self.server is not None
        host, port = self.server.server_address[:2]
        scheme = "https" if self.tls is not None else "http"
        return f"{scheme}://{self.name or host}:{port}"

    def keys(self) -> dict[str, str]:
        """The subscription's public key and auth secret, as a browser gives them."""
        public = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"p256dh": b64url(public), "auth": b64url(self.auth_secret)}

    def subscription(self, name: str = "device-1") -> dict[str, Any]:
        return {
            "kind": "webpush",
            "endpoint": f"{self.url}/push/{name}",
            "expirationTime": None,
            "keys": self.keys(),
        }

    def start(self) -> None:
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                try:
                    service.take(self.path, dict(self.headers.items()), body)
                except Exception as error:  # noqa: BLE001  (kept for the test to report)
                    service.errors.append(repr(error))
                self.send_response(service.answer)
                if service.location is not None:
                    self.send_header("Location", service.location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        class Server(ThreadingHTTPServer):
            def get_request(self) -> tuple[socket.socket, Any]:
                connection, address = super().get_request()
                service.connections += 1
                if service.tls is None:
                    return connection, address
                tls = service.tls.wrap_socket(
                    connection, server_side=True, do_handshake_on_connect=False
                )
                return tls, address

            def handle_error(self, request: Any, client_address: Any) -> None:
                pass  # a client that refused the certificate: counted in ``connections``

        if self.tls is not None:
            self.tls.sni_callback = lambda _socket, name, _context: self.server_names.append(name)
        self.server = Server(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()

    def take(self, path: str, headers: dict[str, str], body: bytes) -> None:
        lower = {k.lower(): v for k, v in headers.items()}
        assert lower["content-encoding"] == "aes128gcm", lower
        claims, key = self.vapid_check(lower["authorization"])
        plain = http_ece.decrypt(
            body, private_key=self.private_key, auth_secret=self.auth_secret, version="aes128gcm"
        )
        message = json.loads(plain)
        self.received.append(Received(path, lower, message, claims, key, len(plain)))
        if self.inbox is not None:
            self.inbox.mkdir(parents=True, exist_ok=True)
            written = self.inbox / f"{time.monotonic_ns():020d}-{os.urandom(4).hex()}.json"
            written.with_suffix(".part").write_text(json.dumps(message))
            written.with_suffix(".part").rename(written)

    def vapid_check(self, authorization: str) -> tuple[dict[str, Any], str]:
        """RFC 8292: ``vapid t=<JWT>, k=<public key>``, the JWT signed ES256 by that key,
        which must be the server's; its claims."""
        scheme, _, rest = authorization.partition(" ")
        assert scheme.lower() == "vapid", authorization
        parts = dict(item.strip().split("=", 1) for item in rest.split(","))
        token, key = parts["t"], parts["k"]
        assert key == self.vapid_public_key, "signed with another key than the server's"
        header, payload, signature = token.split(".")
        raw = unb64url(signature)
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
        public.verify(der, f"{header}.{payload}".encode(), ec.ECDSA(hashes.SHA256()))
        assert json.loads(unb64url(header))["alg"] == "ES256"
        return json.loads(unb64url(payload)), key

    def wait(self, kind: str, seconds: float = 20) -> Received | None:
        """The first push of ``kind``, once it has come (a worker may be sending it)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            assert not self.errors, self.errors
            for push in list(self.received):
                if push.message["kind"] == kind:
                    return push
            time.sleep(0.05)
        return None
