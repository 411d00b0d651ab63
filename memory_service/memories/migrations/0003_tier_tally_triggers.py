"""Triggers that keep ``memories_tiertally`` equal to the memories per organisation and tier.

They fire on every insert, delete and change of the counted columns, so the admin's bulk
actions (promote, archive) keep the counts exact without the services knowing about them.
"""

from django.db import migrations

POSTGRESQL = """
CREATE FUNCTION memories_tally() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE memories_tiertally SET count = count - 1
        WHERE organisation_id = OLD.organisation_id AND tier = OLD.tier;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO memories_tiertally (organisation_id, tier, count)
        VALUES (NEW.organisation_id, NEW.tier, 1)
        ON CONFLICT (organisation_id, tier) DO UPDATE SET count = memories_tiertally.count + 1;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER memories_tally AFTER INSERT OR DELETE OR UPDATE OF tier, organisation_id
    ON memories_memory FOR EACH ROW EXECUTE FUNCTION memories_tally();
"""

POSTGRESQL_DROP = """
DROP TRIGGER IF EXISTS memories_tally ON memories_memory;
DROP FUNCTION IF EXISTS memories_tally();
"""

_ADD = """
    INSERT INTO memories_tiertally (organisation_id, tier, count)
    VALUES (NEW.organisation_id, NEW.tier, 1)
    ON CONFLICT (organisation_id, tier) DO UPDATE SET count = count + 1;
"""
_REMOVE = """
    UPDATE memories_tiertally SET count = count - 1
    WHERE organisation_id = OLD.organisation_id AND tier = OLD.tier;
"""
SQLITE = [
    f"CREATE TRIGGER memories_tally_insert AFTER INSERT ON memories_memory BEGIN {_ADD} END",
    f"CREATE TRIGGER memories_tally_delete AFTER DELETE ON memories_memory BEGIN {_REMOVE} END",
    "CREATE TRIGGER memories_tally_update AFTER UPDATE OF tier, organisation_id"
    f" ON memories_memory BEGIN {_REMOVE} {_ADD} END",
]
SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS memories_tally_insert",
    "DROP TRIGGER IF EXISTS memories_tally_delete",
    "DROP TRIGGER IF EXISTS memories_tally_update",
]
BACKFILL = """
INSERT INTO memories_tiertally (organisation_id, tier, count)
SELECT organisation_id, tier, COUNT(*) FROM memories_memory GROUP BY organisation_id, tier
"""


def create(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    statements = {"postgresql": [POSTGRESQL], "sqlite": SQLITE}[vendor]
    schema_editor.execute("DELETE FROM memories_tiertally")
    schema_editor.execute(BACKFILL)
    for statement in statements:
        schema_editor.execute(statement)


def drop(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for statement in {"postgresql": [POSTGRESQL_DROP], "sqlite": SQLITE_DROP}[vendor]:
        schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [("memories", "0002_tier_tally")]

    operations = [migrations.RunPython(create, drop)]
