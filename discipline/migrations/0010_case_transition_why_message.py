"""Issue 26: a case's default reason for a hearing ("hearing on 2027-07-03 18:00 (venue time)") is stored as its
message and values, said in the reader's language, its moment in the reader's locale. The older rows written in
English are read back; the committee's own words stay as written. A protest's stored reasons (a lapse "missing at
the deadline, 2027-07-03 18:00 (venue time)") keep their moments as moments, not as English."""

import datetime
import re
import zoneinfo

from django.db import migrations, models

from common.text import Moment, said, to_data

_HEARING = re.compile(r"^hearing on (\d{4}-\d{2}-\d{2} \d{2}:\d{2}) \(venue time\)$")
_MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
_SECOND = re.compile(
    r"^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (\d{1,2}) (" + "|".join(_MONTHS) + r") (\d{4}), (\d{2}):(\d{2}):(\d{2}) \S+$"
)
_VENUE = re.compile(r"^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}) \(venue time\)$")


def _moment(value, zone):
    """The stored moment ``value`` (English) is, in ``zone``; None when it is not one (frozen here)."""
    if not isinstance(value, str):
        return None
    found, style = _SECOND.match(value), "second"
    if found:
        day, month, year, hour, minute, second = found.groups()
        parts = (int(year), _MONTHS.index(month) + 1, int(day), int(hour), int(minute), int(second))
    else:
        found, style = _VENUE.match(value), "venue"
        if not found:
            return None
        parts = tuple(int(part) for part in found.groups())
    for fold in (0, 1):
        made = Moment(datetime.datetime(*parts, tzinfo=zone, fold=fold), style)
        if made == value:
            return to_data(made)
    return None


def _with_moments(data, zone):
    if not isinstance(data, dict) or "msgid" not in data:
        return data
    args = {
        name: _moment(value, zone) or _with_moments(value, zone) for name, value in (data.get("args") or {}).items()
    }
    return {**data, "args": args}


def protest_moments(apps, schema_editor):
    ProtestTransition = apps.get_model("discipline", "ProtestTransition")
    rows = ProtestTransition.objects.filter(reason_message__isnull=False).select_related(
        "protest__game__championship__venue"
    )
    for row in rows.iterator(chunk_size=500):
        zone = zoneinfo.ZoneInfo(row.protest.game.championship.venue.time_zone)
        data = _with_moments(row.reason_message, zone)
        if data != row.reason_message:
            ProtestTransition.objects.filter(pk=row.pk).update(reason_message=data)


def read_hearings_back(apps, schema_editor):
    CaseTransition = apps.get_model("discipline", "CaseTransition")
    rows = CaseTransition.objects.filter(why_message__isnull=True, why__startswith="hearing on ")
    for row in rows.select_related("case__championship__venue").iterator(chunk_size=500):
        found = _HEARING.match(row.why)
        if not found:
            continue
        zone = zoneinfo.ZoneInfo(row.case.championship.venue.time_zone)
        at = datetime.datetime.strptime(found.group(1), "%Y-%m-%d %H:%M").replace(tzinfo=zone)
        text = said("hearing on {moment}", moment=Moment(at, "venue"))
        if text == row.why:
            CaseTransition.objects.filter(pk=row.pk).update(why_message=to_data(text))


class Migration(migrations.Migration):
    dependencies = [("discipline", "0009_stored_texts_from_english")]

    operations = [
        migrations.AddField(
            model_name="casetransition",
            name="why_message",
            field=models.JSONField(blank=True, editable=False, null=True),
        ),
        migrations.RunPython(read_hearings_back, migrations.RunPython.noop, elidable=True),
        migrations.RunPython(protest_moments, migrations.RunPython.noop, elidable=True),
    ]
