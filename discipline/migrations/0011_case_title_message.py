"""Issue 26: a case's default title ("Case: Protest #3 (Administrative) of Italy", "Case: Italy – Spain: Match
penalty (6.1.6) (6.4.1)") is stored as its message and values, said in the reader's language. The older rows written
in English are read back; a title the committee typed stays as written."""

from django.db import migrations, models

from common.text import read_back, to_data

# Frozen here: the protests' kinds as the default title names them, and the consequences' labels (English msgids).
_PROTEST_KINDS = ["Administrative", "Against a referee's ruling", "A federation's protest about an incident"]
_CONSEQUENCE_KINDS = [
    "Game misconduct (6.1.5)",
    "Match penalty (6.1.6)",
    "Gross misconduct (6.4.9 L)",
    "Game ejection (6.1.7)",
]
_PATTERNS = [
    {
        "msgid": "Case: {what}",
        "args": {
            "what": [
                {
                    "msgid": "Protest #{number} ({kind}) of {entry}",
                    "args": {"kind": [{"msgid": kind, "context": "protest kind"} for kind in _PROTEST_KINDS]},
                },
                {
                    "msgid": "{game}: {kind} ({article})",
                    "args": {"kind": [{"msgid": kind, "braced": False} for kind in _CONSEQUENCE_KINDS]},
                },
            ]
        },
    }
]


def read_titles_back(apps, schema_editor):
    Case = apps.get_model("discipline", "Case")
    for case in Case.objects.filter(title_message__isnull=True, title__startswith="Case: ").iterator(chunk_size=500):
        text = read_back(case.title, _PATTERNS)
        if text is not None:  # what the case is about read back too (a value with patterns reads back by one)
            Case.objects.filter(pk=case.pk).update(title_message=to_data(text))


class Migration(migrations.Migration):
    dependencies = [("discipline", "0010_case_transition_why_message")]

    operations = [
        migrations.AddField(
            model_name="case",
            name="title_message",
            field=models.JSONField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="historicalcase",
            name="title_message",
            field=models.JSONField(blank=True, editable=False, null=True),
        ),
        migrations.RunPython(read_titles_back, migrations.RunPython.noop, elidable=True),
    ]
