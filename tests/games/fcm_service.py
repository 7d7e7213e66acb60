"""FCM of the tests' own, on loopback: Google's OAuth token endpoint and FCM's HTTP v1 send, as
firebase-admin talks to them. The token endpoint checks the service account's signed JWT
(RFC 7523, RS256, with the account's public key) and issues an access token; the send checks
that bearer token and keeps each message as FCM got it (its JSON body). A token starting
``gone`` is answered 404 ``UNREGISTERED``, as FCM answers a device that is no more.

firebase-admin sends to ``_MessagingService.FCM_URL`` and the account's ``token_uri``: the test
points both here (``url``)."""

from __future__ import annotations

import json
import secrets
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs

import jwt
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey


@dataclass
class FcmService:
    public_key: RSAPublicKey
    client_email: str
    messages: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    tokens: set[str] = field(default_factory=set)
    server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self.server is not None
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> None:
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                try:
                    status, answer = service.take(self.path, dict(self.headers.items()), body)
                except Exception as error:  # noqa: BLE001  (kept for the test to report)
                    service.errors.append(repr(error))
                    status, answer = 400, {"error": {"code": 400, "status": "INVALID_ARGUMENT"}}
                data = json.dumps(answer).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()

    def take(self, path: str, headers: dict[str, str], body: bytes) -> tuple[int, dict[str, Any]]:
        if path == "/token":
            form = parse_qs(body.decode())
            assert form["grant_type"] == ["urn:ietf:params:oauth:grant-type:jwt-bearer"], form
            claims = jwt.decode(
                form["assertion"][0],
                self.public_key,
                algorithms=["RS256"],
                audience="https://oauth2.googleapis.com/token",  # google-auth names Google's
            )
            assert claims["iss"] == self.client_email, claims
            assert "https://www.googleapis.com/auth/cloud-platform" in claims["scope"].split()
            token = secrets.token_urlsafe(16)
            self.tokens.add(token)
            return 200, {"access_token": token, "expires_in": 3600, "token_type": "Bearer"}
        lower = {k.lower(): v for k, v in headers.items()}
        scheme, _, token = lower["authorization"].partition(" ")
        assert (scheme, token in self.tokens) == ("Bearer", True), "not a token we issued"
        assert path.endswith("/messages:send"), path
        message = json.loads(body)["message"]
        self.messages.append(message)
        if message["token"].startswith("gone"):
            detail = {
                "@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError",
                "errorCode": "UNREGISTERED",
            }
            error = {"code": 404, "message": "gone", "status": "NOT_FOUND", "details": [detail]}
            return 404, {"error": error}
        return 200, {"name": f"projects/chickenfoot-test/messages/{len(self.messages)}"}
