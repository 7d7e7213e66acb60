"""Live play: match events pushed over WebSocket (Django Channels), per seat and resumable."""
