"""Issue 26: the provisional suspensions' reasons, the protests' incidents and their lapses' reasons stored in English before are read
back into their messages, so each reader reads them in their language. A row that is not one of the known English
texts (the committee's reasons, an incident written in another language) keeps its text and is shown as it is."""

from django.db import migrations

from common.text import read_back, to_data

# The messages as they were when this migration was written (frozen here).
PROVISIONAL_REASONS = [
    {"msgid": "Rule 8.2 C: held or struck an official, the rest of the tournament", "braced": False},
    {
        "msgid": "Rule 7.1: match penalty, the rest of the tournament until the discipline committee decides",
        "braced": False,
    },
    {"msgid": "Rule 8.2 A: major and game misconduct, the next game the team plays", "braced": False},
]
# An on-rink protest's incident ("On-rink protest by France, P1 3:00"). The sheet's entries and the marks made
# before the start are told by longer labels, kept as they are.
INCIDENTS = [{"msgid": "On-rink protest by %(team)s, %(clock)s", "braced": False}]
# A lapse's reason on its transition (9.1, R-51).
_MISSING = [{"msgid": "the fee (R-52)"}, {"msgid": "the written statement"}]
_MISSING += [{"msgid": "{first} and {second}", "args": {"first": _MISSING, "second": _MISSING}}]
LAPSES = [{"msgid": "Rule {article}: {what} missing at the deadline, {due}.", "args": {"what": _MISSING}}]


def read_texts_back(apps, schema_editor):
    Suspension = apps.get_model("discipline", "Suspension")
    for row in Suspension.objects.filter(reasons_message__isnull=True).exclude(reasons="").iterator(chunk_size=500):
        found = read_back(row.reasons, PROVISIONAL_REASONS)
        if found is not None:
            Suspension.objects.filter(pk=row.pk).update(reasons_message=to_data(found))
    Protest = apps.get_model("discipline", "Protest")
    for row in Protest.objects.filter(incident_message__isnull=True).iterator(chunk_size=500):
        found = read_back(row.incident, INCIDENTS)
        if found is not None:
            Protest.objects.filter(pk=row.pk).update(incident_message=to_data(found))
    ProtestTransition = apps.get_model("discipline", "ProtestTransition")
    lapses = ProtestTransition.objects.filter(reason_message__isnull=True, to_status="lapsed").exclude(reason="")
    for row in lapses.iterator(chunk_size=500):
        found = read_back(row.reason, LAPSES)
        if found is not None:
            ProtestTransition.objects.filter(pk=row.pk).update(reason_message=to_data(found))


class Migration(migrations.Migration):
    dependencies = [("discipline", "0008_protest_incident_and_suspension_reasons_messages")]

    operations = [migrations.RunPython(read_texts_back, migrations.RunPython.noop, elidable=True)]
