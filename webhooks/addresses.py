"""Which URLs a webhook may be sent to (docs/webhooks.md, "Addresses").

HTTPS only, to a public address: the portal's workers sit inside its network, and a URL that names a private,
loopback or link-local address (or a host name that resolves to one) would let anyone who registers an endpoint
make the portal call its own services (server-side request forgery). The check runs when an endpoint is saved and
again before each request (the name may resolve elsewhere by then). Outside production, the settings allow plain
HTTP to a loopback address and private addresses, for tests and a developer's receiver
(``WEBHOOKS_ALLOW_LOOPBACK``, ``WEBHOOKS_ALLOW_PRIVATE_ADDRESSES``; always off with ``DJANGO_PRODUCTION=1``).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

MAX_URL_LENGTH = 500

Resolver = Callable[[str, int], list[str]]


def resolve(host: str, port: int) -> list[str]:
    """Return every address ``host`` resolves to (the system's resolver)."""
    return sorted({info[4][0] for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)})


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    address = ipaddress.ip_address(text.split("%", 1)[0])
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _is_public(address) -> bool:
    """A globally routable unicast address: not private, loopback, link-local, shared (100.64/10), reserved..."""
    return address.is_global and not address.is_multicast


def check_endpoint_url(
    url: str,
    *,
    allow_loopback: bool | None = None,
    allow_private: bool | None = None,
    resolver: Resolver = resolve,
) -> str:
    """Return ``url`` if a webhook may be sent there; raise a ValidationError naming ``url`` otherwise.

    HTTPS to public addresses only; plain HTTP only to a loopback address, and loopback or private addresses only,
    where the settings allow them (never in production)."""
    if allow_loopback is None:
        allow_loopback = settings.WEBHOOKS_ALLOW_LOOPBACK
    if allow_private is None:
        allow_private = settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES
    url = (url or "").strip()
    if not url:
        raise ValidationError({"url": _("Give the URL the events are sent to.")})
    if len(url) > MAX_URL_LENGTH:
        raise ValidationError({"url": _("The URL is longer than %(limit)s characters.") % {"limit": MAX_URL_LENGTH}})
    try:
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise ValidationError({"url": _("This is not a valid URL.")}) from None
    host = parts.hostname or ""
    if parts.scheme not in ("https", "http") or not host:
        raise ValidationError({"url": _("Give an https:// URL with a host name.")})
    if parts.username is not None or parts.password is not None:
        raise ValidationError(
            {"url": _("The URL may not carry a user name or password: the signature proves the sender.")}
        )
    if parts.fragment:
        raise ValidationError({"url": _("The URL may not have a #fragment.")})
    try:
        addresses = [_address(text) for text in resolver(host, port)]
    except (OSError, UnicodeError, ValueError):
        addresses = []
    if not addresses:
        raise ValidationError({"url": _("The host name %(host)s cannot be resolved.") % {"host": host}})
    loopback = all(address.is_loopback for address in addresses)
    if parts.scheme == "http" and not (allow_loopback and loopback):
        raise ValidationError({"url": _("Webhooks are sent over HTTPS only: give an https:// URL.")})
    for address in addresses:
        if _is_public(address) or (allow_loopback and address.is_loopback):
            continue
        if allow_private and not address.is_loopback:
            continue
        raise ValidationError(
            {
                "url": _(
                    "%(host)s resolves to %(address)s, a private, loopback or link-local address: webhooks go to "
                    "public addresses only."
                )
                % {"host": host, "address": address}
            }
        )
    return url
