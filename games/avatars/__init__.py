"""Players' pictures: an uploaded avatar, re-encoded and kept content-addressed in a storage
(``STORAGES["avatars"]``: the file system by default, an S3-compatible bucket in production),
and the default one drawn from the initials of the player's name."""
