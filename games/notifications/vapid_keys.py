"""A new VAPID key pair for Web Push, as the environment takes it.

``python -m games.notifications.vapid_keys`` prints two shell assignments::

    VAPID_PRIVATE_KEY=<base64url DER, PKCS#8>
    VAPID_PUBLIC_KEY=<base64url uncompressed P-256 point: the browsers' applicationServerKey>

Keep the private key secret; a new pair makes every browser subscribe again.
"""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def vapid_key_pair() -> tuple[str, str]:
    """(private, public), each base64url, as ``VAPID_PRIVATE_KEY`` and ``VAPID_PUBLIC_KEY``."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_bytes(
        serialization.Encoding.DER,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(private), b64url(public)


def main() -> None:
    private, public = vapid_key_pair()
    print(f"VAPID_PRIVATE_KEY={private}")  # noqa: T201
    print(f"VAPID_PUBLIC_KEY={public}")  # noqa: T201


if __name__ == "__main__":
    main()
