"""Avatars kept in an S3-compatible bucket (``AVATAR_STORAGE=s3``: django-storages), against a
real S3-protocol server started on loopback by the test (moto's server, over HTTP)."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from http import HTTPStatus
from typing import Any

import boto3
import pytest
from moto.server import ThreadedMotoServer
from rest_framework.test import APIClient

from tests.games.avatar_images import encoded, halves

pytestmark = pytest.mark.django_db

BUCKET = "chickenfoot-avatars"
KEYS = {"access_key": "test-key", "secret_key": "test-secret"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def s3_endpoint() -> Iterator[str]:
    """An S3 server on a loopback port of its own, with an empty bucket."""
    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    try:
        bucket_client(endpoint).create_bucket(Bucket=BUCKET)
        yield endpoint
    finally:
        server.stop()


def bucket_client(endpoint: str) -> Any:
    return boto3.client(
        "s3",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id=KEYS["access_key"],
        aws_secret_access_key=KEYS["secret_key"],
    )


@pytest.fixture
def s3_avatars(settings: Any, s3_endpoint: str) -> Any:
    """The avatars' storage is the bucket, configured as settings.py does for
    ``AVATAR_STORAGE=s3``; the bucket's client, to look into it."""
    settings.STORAGES = {
        **settings.STORAGES,
        "avatars": {
            "BACKEND": "storages.backends.s3.S3Storage",
            "OPTIONS": {
                "bucket_name": BUCKET,
                "endpoint_url": s3_endpoint,
                "region_name": "us-east-1",
                "location": "avatars",
                "file_overwrite": True,
                "default_acl": None,
                "querystring_auth": False,
                **KEYS,
            },
        },
    }
    return bucket_client(s3_endpoint)


def keys(client: Any) -> list[str]:
    listed = client.list_objects_v2(Bucket=BUCKET).get("Contents", [])
    return sorted(item["Key"] for item in listed)


def test_an_avatar_is_written_to_served_from_and_removed_from_the_bucket(
    s3_avatars: Any, clients: list[APIClient], django_capture_on_commit_callbacks: Any
) -> None:
    body = (
        clients[0]
        .put("/api/players/me/avatar", data=encoded(halves()), content_type="image/png")
        .json()
    )

    large = body["avatar_url"].rsplit("/", 1)[1]
    small = body["avatar_small_url"].rsplit("/", 1)[1]
    assert keys(s3_avatars) == sorted([f"avatars/{large}", f"avatars/{small}"])
    stored = s3_avatars.get_object(Bucket=BUCKET, Key=f"avatars/{large}")["Body"].read()
    served = APIClient().get(f"/api/avatars/{large}")
    assert served.status_code == HTTPStatus.OK
    assert served.content == stored

    with django_capture_on_commit_callbacks(execute=True):
        assert clients[0].delete("/api/players/me/avatar").status_code == HTTPStatus.OK

    assert keys(s3_avatars) == []
    assert APIClient().get(f"/api/avatars/{large}").status_code == HTTPStatus.NOT_FOUND


def test_a_file_missing_from_the_bucket_is_not_found(
    s3_avatars: Any, clients: list[APIClient]
) -> None:
    body = (
        clients[0]
        .put("/api/players/me/avatar", data=encoded(halves()), content_type="image/png")
        .json()
    )
    name = body["avatar_url"].rsplit("/", 1)[1]
    s3_avatars.delete_object(Bucket=BUCKET, Key=f"avatars/{name}")

    response = APIClient().get(f"/api/avatars/{name}")

    assert response.status_code == HTTPStatus.NOT_FOUND
    assert response.json()["code"] == "avatar_not_found"
