"""GameSheet.log_key: a key of its own for each sheet, with the id the key of its kept parsed log
(games.sheet.PARSED_LOGS). Existing sheets get one each (a column default would give them all the same)."""

import uuid

from django.db import migrations, models


def give_each_sheet_its_key(apps, schema_editor):
    GameSheet = apps.get_model("games", "GameSheet")
    for sheet in GameSheet.objects.filter(log_key__isnull=True).only("pk"):
        GameSheet.objects.filter(pk=sheet.pk).update(log_key=uuid.uuid4())


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_sheet_signature_signer_and_method"),
    ]

    operations = [
        migrations.AddField(model_name="gamesheet", name="log_key", field=models.UUIDField(null=True, editable=False)),
        migrations.RunPython(give_each_sheet_its_key, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="gamesheet", name="log_key", field=models.UUIDField(default=uuid.uuid4, editable=False)
        ),
    ]
