"""A person's API tokens page: the rows built in Python with what every row shares worked out once (portal.rows;
issue 27: a page of 100 rows costs at most 10x the CPU of the home page). The page is ``accounts/tokens.html``."""

from __future__ import annotations

from django.middleware.csrf import get_token
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from portal.rows import date_formatter, fill, joined, url_pattern


def token_rows(request, tokens) -> SafeString:
    """Each token: its name, the first 8 characters of its key, when it was made and when it expires, and Revoke."""
    revoke_url = url_pattern("accounts:token-revoke")
    iso, shown = date_formatter("c"), date_formatter("DATETIME_FORMAT")
    csrf = get_token(request)
    never, revoke = gettext("never"), gettext("Revoke")
    html = []
    for token in tokens:
        expires = (
            fill('<time datetime="{iso}">{shown}</time>', iso=iso(token.expiry), shown=shown(token.expiry))
            if token.expiry
            else never
        )
        html.append(
            fill(
                "<tr><td>{name}</td><td><code>{start}…</code></td>"
                '<td><time datetime="{created_iso}">{created}</time></td><td>{expires}</td>'
                '<td><form method="post" action="{revoke_url}">'
                '<input type="hidden" name="csrfmiddlewaretoken" value="{csrf}">'
                '<button type="submit">{revoke}</button></form></td></tr>',
                name=token.name,
                start=token.token_key[:8],
                created_iso=iso(token.created),
                created=shown(token.created),
                expires=expires,
                revoke_url=revoke_url(token.token_key),
                csrf=csrf,
                revoke=revoke,
            )
        )
    return joined(html)
