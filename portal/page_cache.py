"""Public pages and API answers from Django's cache, keyed by the version of their data (issue 27).

A public page (standings, schedule, a game's box score...) is the same for every anonymous viewer reading one
language: its content is rendered once per data version and kept in the cache framework (Redis in production,
local memory in the embedded default). The key names the page, its object and the language; the value carries
the version it was rendered at. The version is the data's own (a championship's ``data_version``, which every
service that changes the data bumps in its transaction, and a sheet's ``sequence``): a request that reads a newer
version than the one cached renders afresh, so a result is on the next page read, never a stale one.

What is cached is the page's content (its ``title``, ``head`` and ``content`` blocks), never the whole response:
the frame around it (``base.html``: the menu, the language switch with its CSRF token, messages, a per-request
CSP nonce) is rendered for each request. A fragment that used the request's CSP nonce or holds a CSRF token is not
cached (it would carry one request's nonce or token to another). Logged-in viewers get the page rendered afresh: their pages may carry
links for staff or the team's managers.

One render per change, not one per viewer: the request that finds the cached version older takes a short lock
(``cache.add``) and renders; while it does, the others are answered with the version cached before
(stale-while-revalidate: at most one render's time old), or, when there is none, wait for the render a moment
(``WAIT_SECONDS``) before rendering themselves.

The cache is a help, never a need: when it fails (Redis refused, or hung until the client's read timeout,
``settings.REDIS_READ_TIMEOUT``) the failure is logged and the page rendered as if nothing were cached.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Callable, Hashable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import translation
from django_redis.exceptions import ConnectionInterrupted
from redis.exceptions import RedisError
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder

logger = logging.getLogger(__name__)

# What a cache whose server is down or hung raises (django-redis wraps redis-py's errors; Django's own Redis
# backend does not).
CACHE_ERRORS = (ConnectionInterrupted, RedisError, OSError)

# A cached page is kept this long without a read; a version change replaces it sooner.
TIMEOUT_SECONDS = 600
# The lock of one render: long enough for the slowest page, short enough that a crashed render frees it soon.
LOCK_SECONDS = 10
# How long a request with nothing cached waits for another's render, and how often it looks.
WAIT_SECONDS = 2.0
POLL_SECONDS = 0.02

# The blocks a public page's template fills; ``templates/page_fragment.html`` renders them with these marks
# between them (a page's own text never holds them: what it shows is escaped).
BLOCKS = ("title", "head", "content")
_MARK = "<!--page-cache:block-->"

Version = tuple[Hashable, ...]


def page_key(name: str, *parts: Hashable) -> str:
    """The cache key of a public page or answer: its name, its object, the language read (no version)."""
    language = translation.get_language() or ""
    return ":".join(["page", settings.PAGE_CACHE_NAMESPACE, name, *(str(part) for part in parts), language])


def cached(key: str, version: Version, produce: Callable[[], Any]) -> Any:
    """Return the value cached under ``key`` at ``version``; produce it once per version (a short lock).

    ``version`` is compared for equality: any change of the data's version numbers renders afresh. A cache that
    fails is logged and left out (``produce()``); an error of ``produce`` is its own.
    """
    version = tuple(version)
    try:
        stored = cache.get(key)
    except CACHE_ERRORS:
        _unavailable(key)
        return produce()
    if stored is not None and stored[0] == version:
        return stored[1]
    lock = f"{key}:lock:{'.'.join(str(part) for part in version)}"
    try:
        locked = cache.add(lock, 1, LOCK_SECONDS)
    except CACHE_ERRORS:
        _unavailable(key)
        return produce()
    if locked:
        try:
            value = produce()
            _quietly(key, cache.set, key, (version, value), TIMEOUT_SECONDS)
        finally:
            _quietly(key, cache.delete, lock)
        return value
    if stored is not None:
        # Another request renders this version: the one cached before serves meanwhile (stale-while-revalidate).
        return stored[1]
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        time.sleep(POLL_SECONDS)
        try:
            stored = cache.get(key)
        except CACHE_ERRORS:
            _unavailable(key)
            break
        if stored is not None and stored[0] == version:
            return stored[1]
    return produce()


def _unavailable(key: str) -> None:
    logger.warning("page cache unavailable for %s: rendered without it", key, exc_info=True)


def _quietly(key: str, call: Callable[..., Any], *args: Any) -> None:
    """A cache write whose failure is only logged: the page is rendered already."""
    try:
        call(*args)
    except CACHE_ERRORS:
        _unavailable(key)


def _uncacheable(request, fragment: dict[str, str]) -> bool:
    """Whether the fragment carries something of this request alone: its CSP nonce (django-csp sets
    ``_csp_nonce`` once it is read) or a form's CSRF token."""
    nonce = getattr(request, "_csp_nonce", None)
    texts = fragment.values()
    return any("csrfmiddlewaretoken" in text for text in texts) or (
        isinstance(nonce, str) and any(nonce in text for text in texts)
    )


class _NotCacheable(Exception):
    def __init__(self, fragment: dict[str, str]):
        self.fragment = fragment


def _render_fragment(request, template: str, context: dict[str, Any]) -> dict[str, str]:
    """The page's blocks rendered alone: the template extends ``page_fragment.html`` instead of ``base.html``."""
    text = render_to_string(template, {**context, "page_base": "page_fragment.html"}, request=request)
    parts = text.split(_MARK)
    if len(parts) != len(BLOCKS):
        raise ValueError(f"{template} does not extend page_base: a cached page fills title, head and content")
    return dict(zip(BLOCKS, (part.strip() for part in parts), strict=True))


def is_public_viewer(request) -> bool:
    """Whether the request reads the public page every anonymous viewer reads (a GET without a login)."""
    return request.method in ("GET", "HEAD") and not request.user.is_authenticated


def public_page(
    request,
    template: str,
    *,
    key: str,
    version: Version,
    context: Callable[[], dict[str, Any]],
):
    """Render ``template`` with ``context()``; for an anonymous viewer, its content comes from the cache.

    ``context`` is called only when the page is rendered (a miss, or a logged-in viewer), so a cached hit costs
    the reads that give ``version`` and the frame around the content. ``template`` extends
    ``{{ page_base|default:"base.html" }}``.
    """
    if not is_public_viewer(request):
        return render(request, template, context())

    def produce() -> dict[str, str]:
        fragment = _render_fragment(request, template, context())
        if _uncacheable(request, fragment):
            raise _NotCacheable(fragment)
        return fragment

    try:
        fragment = cached(key, version, produce)
    except _NotCacheable as refused:
        fragment = refused.fragment
    return render(request, "page_cached.html", {"fragment": fragment})


def public_answer(request, *, version: Version, produce: Callable[[], Any]) -> Response:
    """Answer an API read with ``produce()`` (the serialized data); an anonymous reader's comes from the cache.

    Keyed by the path with its query (filters, page) and the language, at ``version``; kept as plain JSON data
    (the serializer is not kept), so each request renders it in the format it asks for.
    """
    if not is_public_viewer(request):
        return Response(produce())
    path = hashlib.sha256(request.get_full_path().encode()).hexdigest()[:32]

    def plain() -> Any:
        return json.loads(json.dumps(produce(), cls=JSONEncoder))

    return Response(cached(page_key("api", path), version, plain))
