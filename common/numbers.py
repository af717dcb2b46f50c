"""Numbers read from input: the one parser every query parameter, form field, API field and file cell goes through.

Python's ``int()`` and ``Decimal()`` read any Unicode decimal digit (``"٣"`` is 3), skip underscores
(``"1_000"``) and surrounding Unicode spaces; ``str.isdigit()`` accepts superscripts (``"²"``) that ``int()``
then refuses with a ValueError, which surfaced as a 500. Input numbers here are ASCII digits only, an optional
sign where the caller allows one, and nothing else: anything else is :class:`NotANumber`, a ``ValueError``
whose message the shells put on the field that was sent (a 400 or a form error naming it). Plain Python, no
Django.
"""

from __future__ import annotations

import re
from decimal import Decimal

from common.text import _

_WHOLE = re.compile(r"[0-9]+")
_SIGNED_WHOLE = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")
# Spaces a form or a query string may leave around a number (ASCII only: no NBSP, no ideographic space).
_SPACES = " \t\r\n"
# Longer than any number the database holds: refused before converting (int() of a 10^5-digit string is slow).
MAX_DIGITS = 30


class NotANumber(ValueError):
    """The text is not a number of the kind asked for (its message says which kind)."""


def whole_number(text: object, *, signed: bool = False, minimum: int | None = None, maximum: int | None = None) -> int:
    """The whole number ``text`` writes in ASCII digits (a leading ``+``/``-`` only if ``signed``), in bounds.

    An ``int`` (not a ``bool``) is taken as it is, then bounded. Raises :class:`NotANumber` otherwise.
    """
    if isinstance(text, bool) or not isinstance(text, (int, str)):
        raise NotANumber(_("Enter a whole number."))
    if isinstance(text, str):
        stripped = text.strip(_SPACES)
        pattern = _SIGNED_WHOLE if signed else _WHOLE
        if len(stripped) > MAX_DIGITS or not pattern.fullmatch(stripped):
            raise NotANumber("Enter a whole number in the digits 0-9." if signed else "Enter a whole number (0-9).")
        number = int(stripped)
    else:
        number = text
    if minimum is not None and number < minimum:
        raise NotANumber(_("Enter a whole number of at least %(minimum)s.", minimum=minimum))
    if maximum is not None and number > maximum:
        raise NotANumber(_("Enter a whole number of at most %(maximum)s.", maximum=maximum))
    return number


def whole_number_or_none(text: object, *, minimum: int | None = None, maximum: int | None = None) -> int | None:
    """The whole number ``text`` writes (as :func:`whole_number`, unsigned), or None when it is not one."""
    try:
        return whole_number(text, minimum=minimum, maximum=maximum)
    except NotANumber:
        return None


def decimal_number(text: str) -> Decimal:
    """The decimal number ``text`` writes in ASCII digits (``-1.5``, ``2``, ``.5``); :class:`NotANumber` otherwise."""
    stripped = text.strip(_SPACES) if isinstance(text, str) else ""
    if len(stripped) > MAX_DIGITS * 2 or not _DECIMAL.fullmatch(stripped):
        raise NotANumber(_("Enter a number in the digits 0-9 (with a decimal point if needed)."))
    return Decimal(stripped)
