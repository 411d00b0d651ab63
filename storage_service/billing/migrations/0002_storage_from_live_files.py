"""Start the storage series from the files already stored, each at the hour it was uploaded."""

from collections import defaultdict

from django.db import migrations


def seed(apps, schema_editor):
    File = apps.get_model("files", "File")
    StorageChange = apps.get_model("billing", "StorageChange")
    changes: defaultdict[tuple[str, int, str], list[int]] = defaultdict(lambda: [0, 0])
    live = File.objects.filter(deleted_at__isnull=True).order_by()
    rows = live.values_list("organisation_id", "category", "uploaded_at", "size")
    for org_id, category, uploaded_at, size in rows.iterator(chunk_size=5000):
        stamp = int(uploaded_at.timestamp())
        change = changes[(org_id, stamp - stamp % 3600, category)]
        change[0] += size
        change[1] += 1
    StorageChange.objects.bulk_create(
        (
            StorageChange(organisation_id=org, hour=hour, category=category, bytes=b, files=f)
            for (org, hour, category), (b, f) in changes.items()
        ),
        batch_size=1000,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("billing", "0001_usage_rollups"),
        ("files", "0004_tally_triggers"),
    ]

    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
