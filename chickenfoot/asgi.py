"""ASGI entry point: HTTP to Django, ``/ws/`` to the match sockets (games/live/).

Sockets authenticate themselves (a token header or a ticket, games/live/access.py), never by
cookie, so another site's page cannot borrow a visitor's credentials: no origin check is needed,
and native clients (which send no Origin) connect as browsers do. Sockets connect a few at a time
(games/live/gate.py). The heap is settled once the
application is loaded, its full collections on a clock when ``ASGI_OLD_COLLECTION_SECONDS`` says
so (chickenfoot/heap.py).
"""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "chickenfoot.settings")
django_asgi_app = get_asgi_application()  # sets Django up before the consumers are imported

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from chickenfoot import heap  # noqa: E402
from chickenfoot.request_id_middleware import SocketRequestIdMiddleware  # noqa: E402
from games.live.gate import SocketGate  # noqa: E402
from games.live.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SocketGate(SocketRequestIdMiddleware(URLRouter(websocket_urlpatterns))),
    }
)
heap.settle()
heap.old_on_a_clock(settings.ASGI_OLD_COLLECTION_SECONDS)
