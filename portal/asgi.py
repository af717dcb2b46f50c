"""The portal's ASGI application: Django's pages and API, and the live scoreboard's pushes.

Served by uvicorn (`make run`, `make production`). ``/live/...`` carries the scoreboard's transports
(games.consumers): a WebSocket per viewer, and the same protocol as Server-Sent Events; everything else is
Django.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
# Django is set up before the consumers' imports reach the models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.urls import path, re_path  # noqa: E402

from games.consumers import ChampionshipScoreboardConsumer, ScoreboardConsumer, ScoreboardStream  # noqa: E402
from portal.csp import SecurityHeadersASGI  # noqa: E402

websocket_routes = [
    path("live/games/<int:game_id>/", ScoreboardConsumer.as_asgi()),
    path("live/championships/<int:championship_id>/", ChampionshipScoreboardConsumer.as_asgi()),
]
# The stream is no Django view: Django's middleware never sees its responses, so SecurityHeadersASGI gives them the
# security headers every page gets (CSP, nosniff, Referrer-Policy, X-Frame-Options, HSTS; issue 23).
http_routes = [
    path("live/games/<int:game_id>/stream/", SecurityHeadersASGI(AuthMiddlewareStack(ScoreboardStream("game")))),
    path(
        "live/championships/<int:championship_id>/stream/",
        SecurityHeadersASGI(AuthMiddlewareStack(ScoreboardStream("championship"))),
    ),
    re_path(r"", django_asgi_app),
]

from portal.request_limits import RequestBodyLimit  # noqa: E402

application = ProtocolTypeRouter(
    {
        # A body over 12 MB is a 413 before Django reads it (uvicorn has no body-size limit of its own).
        "http": RequestBodyLimit(URLRouter(http_routes)),
        # The viewer's session says who it is (a draft's games are its directors'); other sites' pages may not
        # open a socket with the viewer's cookies.
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_routes))),
    }
)
