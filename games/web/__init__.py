"""The web table: pages a browser plays through. They call the same JSON API as any app."""
