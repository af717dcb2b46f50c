"""Drop the `knox_authtoken` table that knox's own migrations made before they were turned off.

The portal's tokens are `accounts.ApiToken` (KNOX_TOKEN_MODEL); knox's migrations still created a table for its
swapped-out model, always empty, with a foreign key to the users that Django's flush does not know (TRUNCATE on
PostgreSQL fails). settings.MIGRATION_MODULES turns those migrations off; this removes the table where they ran.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("accounts", "0004_api_token")]

    operations = [migrations.RunSQL("DROP TABLE IF EXISTS knox_authtoken", reverse_sql=migrations.RunSQL.noop)]
