# The index keys a document by its memory's id with no foreign key into the memories app: recall
# knows memories only by id and text, and the memories app unindexes what it forgets.

from django.db import migrations, models


def drop_foreign_key(apps, schema_editor):
    # Django sees a one-to-one field becoming a character field of the same column as no change
    # to the database, so the constraint into memories_memory would outlive the field. (SQLite
    # rebuilds the table for the next operation, without it.)
    if schema_editor.connection.vendor == "sqlite":
        return
    Document = apps.get_model("recall", "Document")
    for name in schema_editor._constraint_names(Document, ["memory_id"], foreign_key=True):
        schema_editor.execute(schema_editor._delete_fk_sql(Document, name))


class Migration(migrations.Migration):
    dependencies = [
        ("recall", "0002_packed_posting_blocks"),
    ]

    operations = [
        migrations.RunPython(drop_foreign_key, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="document",
            name="memory",
            field=models.CharField(
                db_column="memory_id", max_length=32, primary_key=True, serialize=False
            ),
        ),
        migrations.RenameField(model_name="document", old_name="memory", new_name="memory_id"),
        migrations.AlterField(
            model_name="document",
            name="memory_id",
            field=models.CharField(max_length=32, primary_key=True, serialize=False),
        ),
    ]
