"""Saying the pure cores' sentences (``common.text.Text``) in the active language (issue 12), and the scripts'
strings: Django's JavaScript catalogue (issue 26)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.formats import date_format
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext, override, pgettext
from django.views.decorators.http import require_GET
from django.views.i18n import JavaScriptCatalog

from common.text import Moment, Text, Texts, Words, from_data, to_data


def say(value: object) -> object:
    """``value`` in the active language when it is a core's sentence (its arguments said too); else as it is.

    A message missing from the catalogue is said in English (gettext's fallback)."""
    if isinstance(value, Moment):
        return said_moment(value)
    if isinstance(value, Texts):
        language = get_language() or settings.LANGUAGE_CODE
        return value.texts.get(language) or value.texts.get(language.split("-")[0]) or str(value)
    if not isinstance(value, Text):
        return value
    message = pgettext(value.context, value.msgid) if value.context else gettext(value.msgid)
    if value.braced and value.args:
        return message.format(**{name: say(argument) for name, argument in value.args.items()})
    if not value.args:
        return message
    return message % {name: say(argument) for name, argument in value.args.items()}


def said_moment(moment: Moment) -> str:
    """A stored moment in the reader's language and locale: "sam. 3 juillet 2027, 13:30:00 CEST" to the second
    (R-51), "sam. 3 juillet 2027 18:00 (heure du lieu)" on the venue's clock."""
    if (get_language() or settings.LANGUAGE_CODE).split("-")[0] == "en":
        return str(moment)  # the English as it was made
    local = moment.at
    day = date_format(local, "D")
    if moment.style == "venue":
        return gettext("%(moment)s (venue time)") % {"moment": f"{day} {date_format(local, 'DATETIME_FORMAT')}"}
    return f"{day} {date_format(local, 'DATE_FORMAT')}, {date_format(local, 'H:i:s')} {local.tzname()}"


def say_html(value: object) -> SafeString:
    """``say`` for a page: the sentence escaped, the people's own words in it (``common.text.Words``) marked as
    theirs (``<span class="their-words" translate="no">``: browsers do not translate them, the site walk's
    language check skips them)."""
    if isinstance(value, Words):
        return format_html('<span class="their-words" translate="no">{}</span>', str(value))
    if not isinstance(value, Text):
        return conditional_escape(str(say(value)))
    message = pgettext(value.context, value.msgid) if value.context else gettext(value.msgid)
    escaped = conditional_escape(message)  # the message's braces and %(name)s are kept by escaping
    if not value.args:
        return mark_safe(escaped)  # noqa: S308 - escaped above
    args = {name: say_html(argument) for name, argument in value.args.items()}
    return mark_safe(escaped.format(**args) if value.braced else escaped % args)  # noqa: S308 - each part escaped


def untranslated(label: object) -> Text:
    """A lazy translation (a choice's label, ``gettext_lazy``) as a ``Text`` of its message, to be stored."""
    with override(None):
        return Text(str(label))  # catalogued label


def in_every_language(build: Callable[[], object]) -> Texts:
    """What ``build`` says in each of the portal's languages (``Texts``): for words made by code that reads the
    records in the active language, stored so that each reader reads them in theirs."""
    texts = {}
    for code, _name in settings.LANGUAGES:
        with override(code):
            texts[code] = str(build())
    return Texts(texts, english=settings.LANGUAGE_CODE)


def stored(data: object, fallback: str = "") -> str:
    """A stored text (``common.text.to_data``) in the active language; ``fallback`` (the row's text as it was
    written) when there is none: a row older than issue 26 whose words could not be read back, or people's own
    words, is shown as it is. The one function every page, API answer, admin list, e-mail and document says a
    stored text with."""
    if not data:
        return fallback
    return str(say(from_data(data)))


def stored_html(data: object, fallback: str = "") -> SafeString:
    """``stored`` for a page (``say_html``): the people's own words in the text marked as theirs; ``fallback``
    escaped."""
    if not data:
        return conditional_escape(fallback)
    return say_html(from_data(data))


def storable(value: object) -> object | None:
    """The stored form of ``value`` when it is a ``Text``, ``Texts`` or ``Words`` (else None: plain words are kept
    as their text)."""
    return to_data(value) if isinstance(value, (Text, Texts, Words)) else None


def said(message: object) -> str:
    """A refusal's message (a core's sentence, a lazy or plain string) as the reader reads it."""
    return str(say(message))


def _said_error(error: ValidationError) -> str:
    message = say(error.message)
    if error.params:
        message = message % {name: say(value) for name, value in error.params.items()}
    return str(message)


def said_errors(exc: ValidationError) -> dict[str, list[str]] | list[str]:
    """Django's ``ValidationError`` as its field -> messages map (or its list of messages), each message said in
    the active language: ``exc.messages`` would give a core's sentence (``Text``) in English."""
    if hasattr(exc, "error_dict"):
        return {field: [_said_error(e) for e in errors] for field, errors in exc.error_dict.items()}
    return [_said_error(e) for e in exc.error_list]


# --- The JavaScript catalogue (issue 26): the scripts' strings, in the language the URL names -------------------

# The project's own apps: the catalogue holds the strings of locale/<language>/LC_MESSAGES/djangojs.po (LOCALE_PATHS),
# none of the installed libraries' (the admin's djangojs strings are not the portal's).
CATALOGUE_PACKAGES = ["portal", "accounts", "federation", "tournaments", "games", "discipline", "reports", "hub"]
# A URL with the catalogue's current version never changes: a browser keeps it a year. Without it (or an old one),
# an hour.
VERSIONED_MAX_AGE = 60 * 60 * 24 * 365
UNVERSIONED_MAX_AGE = 60 * 60


@lru_cache(maxsize=16)
def _fingerprint(path: str, mtime_ns: int, size: int) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]


def catalogue_version(language: str) -> str:
    """A fingerprint of the compiled catalogue of ``language`` (djangojs.mo), "0" when there is none (English)."""
    path = Path(settings.LOCALE_PATHS[0]) / language / "LC_MESSAGES" / "djangojs.mo"
    try:
        stat = path.stat()
    except OSError:
        return "0"
    return _fingerprint(str(path), stat.st_mtime_ns, stat.st_size)


def catalogue_url(language: str | None = None) -> str:
    """The URL of the scripts' catalogue in ``language`` (the active one by default), with its version.

    The language is in the path, not negotiated: the console's offline cache (templates/games/console-worker.js)
    keeps one copy per language, and a Spanish official's page finds the Spanish one."""
    code = language or get_language() or settings.LANGUAGE_CODE
    if code not in dict(settings.LANGUAGES):
        code = settings.LANGUAGE_CODE
    return f"{reverse('javascript-catalogue', args=[code])}?v={catalogue_version(code)}"


def catalogue_prefix() -> str:
    """The path every language's catalogue starts with ("/jsi18n/"): the console's service worker keeps them."""
    code = settings.LANGUAGE_CODE
    return reverse("javascript-catalogue", args=[code]).removesuffix(f"{code}/")


_catalogue_view = JavaScriptCatalog.as_view(packages=CATALOGUE_PACKAGES)


@require_GET
def javascript_catalogue(request: HttpRequest, language: str) -> HttpResponse:
    """Django's JavaScript catalogue (``gettext``, ``ngettext``, ``interpolate``...) of the scripts' strings in
    ``language``; a language the portal does not speak is a 404. Public: it holds the interface's words only."""
    if language not in dict(settings.LANGUAGES):
        raise Http404(gettext("No such language."))
    with override(language):
        response = _catalogue_view(request)
    response["Content-Language"] = language  # the URL's, not the reader's (LocaleMiddleware keeps one already set)
    current = request.GET.get("v") == catalogue_version(language)
    patch_cache_control(response, public=True, max_age=VERSIONED_MAX_AGE if current else UNVERSIONED_MAX_AGE)
    return response
