"""APNs of the tests' own, on loopback: an HTTP/2 server over TLS (the ``h2`` library, a
certificate from a CA of the test's own) that takes pushes as Apple's provider API does
(``POST /3/device/<token>``). It checks each request's provider token (a JWT signed ES256 with
the team's key: ``iss`` the team, ``kid`` the key's id) and its ``apns-topic``, keeps the
request's headers and JSON body, and answers as APNs answers: 200 with the ``apns-id``; a token
starting ``gone`` 410 ``Unregistered``, one starting ``bad`` 400 ``BadDeviceToken``, one starting
``busy`` 503 ``ServiceUnavailable``; a bad provider token 403 ``InvalidProviderToken``.

The server serves under ``name`` (the test's resolver, tests/games/resolver.py, points it at
loopback) and records the name each TLS client asked for (SNI).
"""

from __future__ import annotations

import json
import socket
import ssl
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import h2.config
import h2.connection
import h2.events
import jwt
from cryptography.hazmat.primitives.asymmetric.ec import EllipticCurvePublicKey

#: What a token's start makes the service answer, as APNs would: (status, reason).
REFUSALS = {
    "gone": (410, "Unregistered"),
    "bad": (400, "BadDeviceToken"),
    "busy": (503, "ServiceUnavailable"),
}


@dataclass
class ApnsPush:
    """One request as the service took it."""

    token: str
    headers: dict[str, str]
    body: dict[str, Any]
    status: int


@dataclass
class ApnsService:
    public_key: EllipticCurvePublicKey
    team_id: str
    key_id: str
    topic: str
    tls: ssl.SSLContext
    name: str
    received: list[ApnsPush] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    server_names: list[str | None] = field(default_factory=list)
    #: The ALPN protocol each connection settled on (``None``: the client offered none).
    protocols: list[str | None] = field(default_factory=list)
    listener: socket.socket | None = None
    port: int = 0

    def start(self) -> None:
        self.tls.set_alpn_protocols(["h2"])
        self.tls.sni_callback = lambda _socket, name, _context: self.server_names.append(name)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def stop(self) -> None:
        if self.listener is not None:
            self.listener.close()

    def _accept(self) -> None:
        assert self.listener is not None
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return  # stopped
            threading.Thread(target=self._serve, args=(connection,), daemon=True).start()

    def _serve(self, raw: socket.socket) -> None:
        try:
            with self.tls.wrap_socket(raw, server_side=True) as connection:
                self.protocols.append(connection.selected_alpn_protocol())
                self._speak_h2(connection)
        except (OSError, ssl.SSLError) as error:
            self.errors.append(repr(error))

    def _speak_h2(self, connection: ssl.SSLSocket) -> None:
        h2c = h2.connection.H2Connection(
            config=h2.config.H2Configuration(client_side=False, header_encoding="utf-8")
        )
        h2c.initiate_connection()
        connection.sendall(h2c.data_to_send())
        streams: dict[int, tuple[dict[str, str], bytearray]] = {}
        while True:
            data = connection.recv(65535)
            if not data:
                return
            for event in h2c.receive_data(data):
                if isinstance(event, h2.events.RequestReceived):
                    streams[event.stream_id] = (dict(event.headers), bytearray())
                elif isinstance(event, h2.events.DataReceived):
                    streams[event.stream_id][1].extend(event.data)
                    h2c.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                elif isinstance(event, h2.events.StreamEnded):
                    headers, body = streams.pop(event.stream_id)
                    self._answer(h2c, event.stream_id, headers, bytes(body))
                elif isinstance(event, h2.events.ConnectionTerminated):
                    connection.sendall(h2c.data_to_send())
                    return
            connection.sendall(h2c.data_to_send())

    def _answer(
        self, h2c: h2.connection.H2Connection, stream_id: int, headers: dict[str, str], body: bytes
    ) -> None:
        try:
            status, reason = self.take(headers, body)
        except Exception as error:  # noqa: BLE001  (kept for the test to report)
            self.errors.append(repr(error))
            status, reason = 400, "BadRequest"
        answer = [(":status", str(status)), ("apns-id", headers.get("apns-id", ""))]
        if reason is None:
            h2c.send_headers(stream_id, answer, end_stream=True)
            return
        h2c.send_headers(stream_id, [*answer, ("content-type", "application/json")])
        refusal = {"reason": reason, "timestamp": int(time.time() * 1000)}
        h2c.send_data(stream_id, json.dumps(refusal).encode(), end_stream=True)

    def take(self, headers: dict[str, str], body: bytes) -> tuple[int, str | None]:
        """Check and keep one request; the status and the reason (``None``: delivered)."""
        assert headers[":method"] == "POST", headers
        prefix = "/3/device/"
        assert headers[":path"].startswith(prefix), headers
        token = headers[":path"][len(prefix) :]
        scheme, _, provider_token = headers.get("authorization", "").partition(" ")
        try:
            claims = jwt.decode(provider_token, self.public_key, algorithms=["ES256"])
            kid = jwt.get_unverified_header(provider_token)["kid"]
            assert (scheme, claims["iss"], kid) == ("bearer", self.team_id, self.key_id)
        except (jwt.PyJWTError, AssertionError, KeyError) as error:
            self.errors.append(f"provider token: {error!r}")
            return 403, "InvalidProviderToken"
        assert headers["apns-topic"] == self.topic, headers
        refused = next((r for start, r in REFUSALS.items() if token.startswith(start)), None)
        status = refused[0] if refused else 200
        self.received.append(ApnsPush(token, headers, json.loads(body), status))
        return (status, refused[1]) if refused else (200, None)
