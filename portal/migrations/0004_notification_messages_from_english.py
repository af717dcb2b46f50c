"""Issue 26: the notifications stored in English before are read back into their messages and values, so each
reader reads them in their language. A row that is not one of the known English messages (one written in French or
Spanish before, a team's own answer) keeps its text and is shown as it is."""

from django.db import migrations

from common.text import read_back, to_data

# The messages as they were when this migration was written (frozen here: later changes to the code's messages
# must not change what this migration reads).
_TEAM_SUBJECTS = [
    {"msgid": "filed by {team}"},
    {"msgid": "answered by {team}"},
    *(
        {"msgid": word, "context": "protest notification"}
        for word in ("fee received", "under review", "upheld", "rejected", "withdrawn", "lapsed", "reminder")
    ),
]
_PERSON_SUBJECTS = [
    {"msgid": "Suspension: {person} is suspended"},
    {"msgid": "Suspension: {person} has served the suspension and may play again"},
    {"msgid": "Suspension: {person} is no longer suspended"},
    {"msgid": "Suspension: {person} has the provisional suspension replaced by the committee's decision"},
]
SUBJECTS = [
    {"msgid": "Protest #{number}, {game}: {what}", "args": {"what": _TEAM_SUBJECTS}},
    *_PERSON_SUBJECTS,
]
# Choices' labels (discipline.models): said by their message alone. The fee's method was told in lower case.
_PROTEST_KINDS = [
    {"msgid": label, "braced": False}
    for label in (
        "Administrative: rink, equipment, unqualified players (9.1 B)",
        "Against a referee's ruling (9.1 A, D)",
        "A federation's protest about an incident (9.1 C)",
    )
]
_FEE_METHODS = [{"msgid": "Cash at the venue", "braced": False}, {"msgid": "Bank transfer", "braced": False}]
_FEES = [
    {"msgid": "The fee of {fee} is due by then (R-52)."},
    {"msgid": "No fee is due (9.1 C)."},
]
_FEE_OUTCOMES = [
    {"msgid": "The fee is returned (9.1 A, R-52)."},
    {"msgid": "The fee is forfeited (9.1 A, R-52)."},
]
_MISSING = [{"msgid": "the fee (R-52)"}, {"msgid": "the written statement"}]
_MISSING += [{"msgid": "{first} and {second}", "args": {"first": _MISSING, "second": _MISSING}}]
_REMINDED = [{"msgid": "the fee of {fee}"}, {"msgid": "the statement"}]
_REMINDED += [{"msgid": "{first} and {second}", "args": {"first": _REMINDED, "second": _REMINDED}}]
_DECIDED = [{"msgid": "The protest is upheld: {reason}"}, {"msgid": "The protest is rejected: {reason}"}]
_SENTENCES = [
    {"msgid": "{person} is suspended."},
    {"msgid": "{person} has served the suspension and may play again."},
    {"msgid": "{person} is no longer suspended: the suspension ended."},
    {"msgid": "{person} is no longer suspended: the penalty was removed from the game sheet."},
    {"msgid": "{person} has the provisional suspension replaced by the committee's decision."},
    {"msgid": "{person} is no longer suspended: the decision was annulled on appeal."},
]
_KINDS = [
    {"msgid": "rest of the tournament"},
    {"msgid": "rest of the tournament until the committee decides"},
]
_WHAT = [
    {"msgid": "{games} game(s), {served} served"},
    {"msgid": "until {moment} UTC"},
    {"msgid": "{kind} of {championship}", "args": {"kind": _KINDS}},
]
_STATES = [{"msgid": "provisional", "context": "suspension"}, {"msgid": "decided", "context": "suspension"}]
_TERMS = [
    {"msgid": "Rule {article}: suspended ({state}) for {what}", "args": {"state": _STATES, "what": _WHAT}},
]
_PROVISIONAL_REASONS = [
    {"msgid": "Rule 8.2 C: held or struck an official, the rest of the tournament", "braced": False},
    {
        "msgid": "Rule 7.1: match penalty, the rest of the tournament until the discipline committee decides",
        "braced": False,
    },
    {"msgid": "Rule 8.2 A: major and game misconduct, the next game the team plays", "braced": False},
]
BODIES = [
    {
        "msgid": "{protest}\n{due} {fee}\n{answer}",
        "args": {
            "protest": [{"msgid": "{team} protests ({kind}): {incident}.", "args": {"kind": _PROTEST_KINDS}}],
            "due": [{"msgid": "The written protest is due by {due} (Rule {article})."}],
            "fee": _FEES,
            "answer": [{"msgid": "The opposing team may answer in writing until {due}."}],
        },
    },
    {"msgid": "The protest fee of {amount} ({method}) was received (R-52).", "args": {"method": _FEE_METHODS}},
    {"msgid": "The discipline committee is reviewing the protest."},
    {"msgid": "{decision} {fee}", "args": {"decision": _DECIDED, "fee": _FEE_OUTCOMES}},
    *_DECIDED,
    {"msgid": "{team} withdrew the protest."},
    {"msgid": "Rule {article}: {what} missing at the deadline, {due}.", "args": {"what": _MISSING}},
    {"msgid": "Rule {article}: {what} must be in by {due}, or the protest lapses.", "args": {"what": _REMINDED}},
    {"msgid": "Your team may answer the protest in writing until {due}."},
    {
        "msgid": "{sentence} {terms}. {reasons}",
        "args": {"sentence": _SENTENCES, "terms": _TERMS, "reasons": _PROVISIONAL_REASONS},
        "words": ["reasons"],  # the committee's reasons: its own words
    },
    {"msgid": "{sentence} {terms}.", "args": {"sentence": _SENTENCES, "terms": _TERMS}},
]


def read_messages_back(apps, schema_editor):
    Notification = apps.get_model("portal", "Notification")
    rows = Notification.objects.filter(subject_message__isnull=True, body_message__isnull=True)
    for row in rows.iterator(chunk_size=500):
        subject, body = read_back(row.subject, SUBJECTS), read_back(row.body, BODIES)
        if subject is None and body is None:
            continue
        row.subject_message = to_data(subject) if subject is not None else None
        row.body_message = to_data(body) if body is not None else None
        row.save(update_fields=["subject_message", "body_message"])


class Migration(migrations.Migration):
    dependencies = [("portal", "0003_notification_messages")]

    operations = [migrations.RunPython(read_messages_back, migrations.RunPython.noop, elidable=True)]
