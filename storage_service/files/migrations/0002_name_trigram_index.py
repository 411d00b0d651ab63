"""A trigram index on file names, so `search` (a substring match) is an index scan on PostgreSQL.

SQLite has no trigram support; there the search falls back to a scan of the organisation's files.
"""

from django.db import migrations


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        schema_editor.execute(
            "CREATE INDEX IF NOT EXISTS file_name_trgm ON files_file "
            "USING gin ((upper((name)::text)) gin_trgm_ops)"  # the form icontains queries
        )


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP INDEX IF EXISTS file_name_trgm")


class Migration(migrations.Migration):
    dependencies = [("files", "0001_initial")]

    operations = [migrations.RunPython(create, drop)]
