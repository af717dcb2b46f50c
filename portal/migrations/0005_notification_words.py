"""People's own words and moments inside a stored notification (``common.text.Words``, ``common.text.Moment``): a
committee's reasons, a protective device's description are marked as theirs, so a page shows them as written and
marked (``.their-words``), never as the portal's sentence; a deadline is said in the reader's locale, never as the
English written when it was stored ("Sat 3 Jul 2027, 13:30:00 CEST").

Four kinds of older rows are brought in line:
- stored messages whose people's words were stored as plain values (a suspension's committee reasons, a protest's
  decision reasons): the value is stored as words;
- a protest's notifications whose moments were stored as English values: read back in the venue's zone (a value
  whose English does not come back exactly stays as it is);
- a team's answer to a protest, stored as its words only: stored as words (marked as the team's on a page);
- the protective device notifications stored as the text in their reader's language before they were stored as
  messages: the English ones are read back into their messages, the others stay as written.
"""

import datetime
import re
import zoneinfo

from django.db import migrations

from common.text import Moment, read_back, to_data

# The messages as they were when this migration was written (frozen here), with the values that are words.
WORDS = {
    "{sentence} {terms}. {reasons}": ["reasons"],
    "The protest is upheld: {reason}": ["reason"],
    "The protest is rejected: {reason}": ["reason"],
}
SUBJECTS = [
    {"msgid": "Protective device approved for {person}"},
    {"msgid": "Protective device refused for {person}"},
]
BODIES = [
    {"msgid": "Rule 3.2.8 C: the IHTC allows {person} to wear: {device}.", "words": ["device"]},
    {
        "msgid": "Rule 3.2.8 C: the IHTC refused {person}'s request for: {device}. Reason: {reason}",
        "words": ["device", "reason"],
    },
]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
SECOND = re.compile(
    r"^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (\d{1,2}) (" + "|".join(MONTHS) + r") (\d{4}), (\d{2}):(\d{2}):(\d{2}) \S+$"
)
VENUE = re.compile(r"^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}) \(venue time\)$")
PROTEST_KEY = re.compile(r"^protest:(\d+):")


def moment(value, zone):
    """The stored moment ``value`` (English) is, in ``zone``; None when it is not one."""
    if not isinstance(value, str) or zone is None:
        return None
    found, style = SECOND.match(value), "second"
    if found:
        day, month, year, hour, minute, second = found.groups()
        parts = (int(year), MONTHS.index(month) + 1, int(day), int(hour), int(minute), int(second))
    else:
        found, style = VENUE.match(value), "venue"
        if not found:
            return None
        parts = tuple(int(part) for part in found.groups())
    for fold in (0, 1):  # the hour repeated when the clocks go back: the one whose English is the value's
        made = Moment(datetime.datetime(*parts, tzinfo=zone, fold=fold), style)
        if made == value:
            return to_data(made)
    return None


def marked(data, words=(), zone=None):
    """``data`` (a stored text) with the values named in ``words`` (and those ``WORDS`` names) stored as words and
    the English moments stored as moments."""
    if not isinstance(data, dict) or "msgid" not in data:
        return data
    named = WORDS.get(data["msgid"], words)
    args = {}
    for name, value in (data.get("args") or {}).items():
        if name in named and isinstance(value, str):
            args[name] = {"words": value}
        else:
            args[name] = moment(value, zone) or marked(value, zone=zone)
    return {**data, "args": args}


def _body(row):
    for pattern in BODIES:
        found = read_back(row.body, [pattern])
        if found is not None:
            return marked(to_data(found), pattern["words"])
    return None


def _zones(apps):
    """The venue's zone of each protest (its notifications' moments are the venue's clock)."""
    Protest = apps.get_model("discipline", "Protest")
    rows = Protest.objects.values_list("pk", "game__championship__venue__time_zone")
    return {pk: zoneinfo.ZoneInfo(zone) for pk, zone in rows if zone}


def mark_words(apps, schema_editor):
    Notification = apps.get_model("portal", "Notification")
    zones = None
    for row in Notification.objects.filter(body_message__isnull=False).iterator(chunk_size=500):
        zone = None
        protest = PROTEST_KEY.match(row.key)
        if protest:
            zones = _zones(apps) if zones is None else zones
            zone = zones.get(int(protest.group(1)))
        body = marked(row.body_message, zone=zone)
        if body != row.body_message:
            Notification.objects.filter(pk=row.pk).update(body_message=body)
    answers = Notification.objects.filter(body_message__isnull=True, key__regex=r"^protest:\d+:answered$")
    for row in answers.iterator(chunk_size=500):
        Notification.objects.filter(pk=row.pk).update(body_message={"words": row.body})
    rows = Notification.objects.filter(body_message__isnull=True, subject_message__isnull=True)
    for row in rows.filter(key__startswith="device-request:").iterator(chunk_size=500):
        subject, body = read_back(row.subject, SUBJECTS), _body(row)
        if subject is None or body is None:
            continue  # written in French or Spanish: shown as written
        Notification.objects.filter(pk=row.pk).update(subject_message=to_data(subject), body_message=body)


class Migration(migrations.Migration):
    dependencies = [
        ("portal", "0004_notification_messages_from_english"),
        ("discipline", "0010_case_transition_why_message"),
    ]

    operations = [migrations.RunPython(mark_words, migrations.RunPython.noop, elidable=True)]
