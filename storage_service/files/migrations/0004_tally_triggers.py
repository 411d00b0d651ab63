"""Triggers that keep ``files_filetally`` equal to the live files per organisation and type.

They fire on every insert, delete and change of the counted columns, so bulk UPDATEs (a folder
sent to the trash, a restore) keep the tallies exact without the services knowing about them.
"""

from django.db import migrations

POSTGRESQL = """
CREATE FUNCTION files_tally() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.deleted_at IS NULL THEN
        UPDATE files_filetally SET live_count = live_count - 1
        WHERE organisation_id = OLD.organisation_id AND category = OLD.category
          AND content_type = OLD.content_type;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.deleted_at IS NULL THEN
        INSERT INTO files_filetally (organisation_id, category, content_type, live_count)
        VALUES (NEW.organisation_id, NEW.category, NEW.content_type, 1)
        ON CONFLICT (organisation_id, category, content_type)
        DO UPDATE SET live_count = files_filetally.live_count + 1;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER files_tally AFTER INSERT OR DELETE
    OR UPDATE OF deleted_at, category, content_type, organisation_id
    ON files_file FOR EACH ROW EXECUTE FUNCTION files_tally();
"""

POSTGRESQL_DROP = """
DROP TRIGGER IF EXISTS files_tally ON files_file;
DROP FUNCTION IF EXISTS files_tally();
"""

_ADD = """
    INSERT INTO files_filetally (organisation_id, category, content_type, live_count)
    SELECT NEW.organisation_id, NEW.category, NEW.content_type, 1 WHERE NEW.deleted_at IS NULL
    ON CONFLICT (organisation_id, category, content_type)
    DO UPDATE SET live_count = live_count + 1;
"""
_REMOVE = """
    UPDATE files_filetally SET live_count = live_count - 1
    WHERE OLD.deleted_at IS NULL AND organisation_id = OLD.organisation_id
      AND category = OLD.category AND content_type = OLD.content_type;
"""
SQLITE = [
    f"CREATE TRIGGER files_tally_insert AFTER INSERT ON files_file BEGIN {_ADD} END",
    f"CREATE TRIGGER files_tally_delete AFTER DELETE ON files_file BEGIN {_REMOVE} END",
    "CREATE TRIGGER files_tally_update AFTER UPDATE OF deleted_at, category, content_type, "
    f"organisation_id ON files_file BEGIN {_REMOVE} {_ADD} END",
]
SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS files_tally_insert",
    "DROP TRIGGER IF EXISTS files_tally_delete",
    "DROP TRIGGER IF EXISTS files_tally_update",
]
BACKFILL = """
INSERT INTO files_filetally (organisation_id, category, content_type, live_count)
SELECT organisation_id, category, content_type, COUNT(*) FROM files_file
WHERE deleted_at IS NULL GROUP BY organisation_id, category, content_type
"""


def create(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    statements = {"postgresql": [POSTGRESQL], "sqlite": SQLITE}[vendor]
    schema_editor.execute("DELETE FROM files_filetally")
    schema_editor.execute(BACKFILL)
    for statement in statements:
        schema_editor.execute(statement)


def drop(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for statement in {"postgresql": [POSTGRESQL_DROP], "sqlite": SQLITE_DROP}[vendor]:
        schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [("files", "0003_live_indexes_and_tally")]

    operations = [migrations.RunPython(create, drop)]
