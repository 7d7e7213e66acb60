"""Friends and blocks: friend requests, friendships, blocks, and the presence friends see."""
