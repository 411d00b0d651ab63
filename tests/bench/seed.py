"""Seed one organisation with many files in set-based SQL (no bytes on disk).

The mix: about 1,000 folders (100 at the top, 9 below each), 10 of them in the trash with their
files; live files spread unevenly over the live folders (a tenth at the root), with MIME types,
categories, sizes and names in realistic proportions and upload times over the past year. Names
come from word lists; ``holiday`` is one noun of 120, so it matches about 0.8% of names.
"""

from __future__ import annotations

from dataclasses import dataclass

import psycopg

from tests.bench.server import one_row

TOP_FOLDERS = 100
SUBFOLDERS_EACH = 9
TRASHED_FOLDERS = 10
TRASHED_FILES_EACH = 1_000
SEARCH_WORD = "holiday"

# (share in percent, MIME type, category, extension, smallest and largest size in bytes)
TYPES = [
    (30, "image/jpeg", "image", "jpg", 40_000, 12_000_000),
    (12, "image/png", "image", "png", 5_000, 8_000_000),
    (15, "application/pdf", "document", "pdf", 20_000, 20_000_000),
    (10, "text/plain", "document", "txt", 100, 200_000),
    (
        5,
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "document",
        "docx",
        10_000,
        5_000_000,
    ),
    (8, "video/mp4", "video", "mp4", 1_000_000, 200_000_000),
    (7, "audio/mpeg", "audio", "mp3", 1_000_000, 15_000_000),
    (8, "application/zip", "other", "zip", 10_000, 100_000_000),
    (5, "application/octet-stream", "other", "bin", 1_000, 20_000_000),
]
assert sum(t[0] for t in TYPES) == 100

_NOUN_TEXT = """
    holiday beach mountain invoice receipt contract report budget forecast meeting agenda minutes
    proposal design mockup logo banner poster flyer brochure catalog portrait landscape sunset
    family wedding birthday party concert festival garden kitchen office studio project client
    vendor partner customer employee payroll timesheet schedule roadmap release changelog manual
    guide tutorial lecture podcast interview episode trailer teaser demo screenshot screencast
    backup archive export import dataset sample template draft review summary analysis survey
    feedback newsletter campaign launch product pricing quote order shipment inventory warehouse
    store website homepage dashboard chart diagram sketch storyboard script soundtrack voiceover
    recording track album playlist photo snapshot selfie pet puppy kitten city river lake forest
    island desert village harbour bridge tower museum gallery stadium airport station train
    harvest meadow
"""
_ADJECTIVE_TEXT = """
    final draft old new v1 v2 v3 edited raw signed scanned approved revised copy backup latest
    original small large hires lowres cropped export public private shared internal external
    annual monthly weekly daily q1 q2 q3 q4 red blue green
"""
NOUNS = _NOUN_TEXT.split()
ADJECTIVES = _ADJECTIVE_TEXT.split()
PREFIXES = ["IMG", "DSC", "Scan", "Export", "Backup", "Untitled", "Document", "Recording"]
assert len(NOUNS) == 120 and NOUNS.count(SEARCH_WORD) == 1
assert not any(SEARCH_WORD in word for word in [*ADJECTIVES, *PREFIXES, *NOUNS[1:]])

# Ids are ``<prefix>_`` and 20 base62 characters, derived from a hash of the row number.
ID = "substr(translate(encode(sha256(({tag} || {n})::bytea), 'base64'), '+/', 'pq'), 1, 20)"

FOLDERS_SQL = f"""
WITH top AS (
    SELECT g, 'fld_' || {ID.format(tag="'top'", n="g")} AS id
    FROM generate_series(1, %(tops)s) AS g
), inserted_top AS (
    INSERT INTO folders_folder
        (id, organisation_id, parent_id, name, path, created_at, updated_at)
    SELECT id, %(org)s, NULL,
           (ARRAY['Projects', 'Clients', 'Marketing', 'Photos', 'Finance', 'Legal', 'Design',
                  'Video', 'Music', 'Archive'])[1 + g %% 10] || ' ' || lpad(g::text, 3, '0'),
           '/' || id || '/', now() - interval '400 days', now() - interval '400 days'
    FROM top
    RETURNING id, path
)
INSERT INTO folders_folder (id, organisation_id, parent_id, name, path, created_at, updated_at)
SELECT 'fld_' || {ID.format(tag="'sub'", n="s")}, %(org)s, p.id,
       (ARRAY['Raw', 'Edited', 'Exports', 'Drafts', 'Final', 'Assets', 'Shared', 'Review',
              'Old'])[1 + (s - 1) / %(tops)s] || ' ' || lpad(s::text, 3, '0'),
       p.path || 'fld_' || {ID.format(tag="'sub'", n="s")} || '/',
       now() - interval '390 days', now() - interval '390 days'
FROM generate_series(1, %(subs)s) AS s
JOIN (SELECT row_number() OVER (ORDER BY path) AS n, id, path FROM inserted_top) AS p
  ON p.n = 1 + (s - 1) %% %(tops)s
"""  # noqa: S608 - built from constants

TRASH_FOLDERS_SQL = """
UPDATE folders_folder SET deleted_at = now() - interval '3 days', trash_root_id = id
WHERE id IN (
    SELECT id FROM folders_folder
    WHERE organisation_id = %(org)s AND parent_id IS NOT NULL
    ORDER BY id LIMIT %(trashed)s
)
"""

# One row per percent: which type a file whose random draw falls in that percent gets.
TYPE_TABLE_SQL = """
CREATE TEMP TABLE bench_type (pct int PRIMARY KEY, mime text, category text, ext text,
                              min_size bigint, max_size bigint)
"""

# Draws are made once per row in a fenced subquery (OFFSET 0), then looked up and assembled;
# ``{folder_table}`` numbers its folders ``k`` from 1, and ``{folder_k}`` picks one (or NULL).
FILES_SQL = f"""
INSERT INTO files_file (id, organisation_id, folder_id, name, size, content_type, category,
                        storage_name, sha256, metadata, uploaded_at, updated_at, deleted_at,
                        trash_root_id)
SELECT 'file_' || {ID.format(tag="%(tag)s::text", n="d.g")},
       %(org)s,
       f.id,
       CASE
           WHEN d.r_name < 0.50 THEN
               d.noun || '_' || d.adj || '_' || lpad((d.g %% 10000)::text, 4, '0')
           WHEN d.r_name < 0.75 THEN d.prefix || '_' || lpad((d.g %% 100000)::text, 5, '0')
           ELSE initcap(d.noun) || ' ' || initcap(d.noun2) || ' '
                || (2016 + d.g %% 10) || '-' || lpad((1 + d.g %% 12)::text, 2, '0')
       END || '.' || t.ext,
       floor(exp(ln(t.min_size) + d.r_size * (ln(t.max_size) - ln(t.min_size))))::bigint,
       t.mime,
       t.category,
       %(org)s::text || '/file_' || {ID.format(tag="%(tag)s::text", n="d.g")},
       encode(sha256(int8send(d.g)), 'hex'),
       CASE WHEN t.category = 'image'
            THEN jsonb_build_object('width', 320 + (d.g %% 37) * 100,
                                    'height', 240 + (d.g %% 29) * 100)
            ELSE '{{{{}}}}'::jsonb
       END,
       d.uploaded_at,
       CASE WHEN d.g %% 10 = 0
            THEN least(now(), d.uploaded_at + interval '1 hour' * (d.g %% 1000))
            ELSE d.uploaded_at END,
       f.deleted_at,
       CASE WHEN f.deleted_at IS NOT NULL THEN f.id END
FROM (
    SELECT g,
           random() AS r_name,
           random() AS r_size,
           random() AS r_folder,
           floor(random() * 100)::int AS pct,
           now() - random() * interval '365 days' AS uploaded_at,
           (%(nouns)s::text[])[1 + floor(random() * %(n_nouns)s)::int] AS noun,
           (%(nouns)s::text[])[1 + floor(random() * %(n_nouns)s)::int] AS noun2,
           (%(adjectives)s::text[])[1 + floor(random() * %(n_adjectives)s)::int] AS adj,
           (%(prefixes)s::text[])[1 + floor(random() * %(n_prefixes)s)::int] AS prefix
    FROM generate_series(%(first)s::int, %(last)s::int) AS g
    OFFSET 0
) AS d
JOIN bench_type AS t ON t.pct = d.pct
LEFT JOIN {{folder_table}} AS f ON f.k = {{folder_k}}
"""  # noqa: S608 - built from constants

# Live files: a tenth at the root, the rest skewed towards the first live folders (a square law).
LIVE_FOLDER_K = (
    "CASE WHEN d.r_folder < 0.1 THEN NULL "
    "ELSE 1 + floor(((d.r_folder - 0.1) / 0.9) ^ 2 * %(live_folders)s)::int END"
)
TRASHED_FOLDER_K = "1 + d.g %% %(trashed)s"


@dataclass(frozen=True)
class Seeded:
    live_files: int
    trashed_files: int
    folders: int
    search_matches: int
    storage_used: int
    largest_folder_id: str
    largest_folder_files: int
    mime_files: dict[str, int]
    category_files: dict[str, int]


def seed(conn: psycopg.Connection, *, org_id: str, files: int) -> Seeded:
    """Insert the folders and ``files`` live files (plus a trashed few), then count and ANALYZE."""
    conn.execute("SELECT setseed(0.2024)")
    conn.execute("SET maintenance_work_mem = '256MB'")
    conn.execute("SET work_mem = '64MB'")
    subs = TOP_FOLDERS * SUBFOLDERS_EACH
    conn.execute(FOLDERS_SQL, {"org": org_id, "tops": TOP_FOLDERS, "subs": subs})
    conn.execute(TRASH_FOLDERS_SQL, {"org": org_id, "trashed": TRASHED_FOLDERS})
    conn.execute(TYPE_TABLE_SQL)
    with conn.cursor() as cursor:
        start = 0
        for share, mime, category, ext, low, high in TYPES:
            cursor.executemany(
                "INSERT INTO bench_type VALUES (%s, %s, %s, %s, %s, %s)",
                [(pct, mime, category, ext, low, high) for pct in range(start, start + share)],
            )
            start += share
    for table, condition in [
        ("bench_live_folder", "deleted_at IS NULL"),
        ("bench_trashed_folder", "deleted_at IS NOT NULL"),
    ]:
        conn.execute(
            f"CREATE TEMP TABLE {table} AS "  # noqa: S608 - names are constants
            "SELECT row_number() OVER (ORDER BY id) AS k, id, deleted_at FROM folders_folder "
            f"WHERE organisation_id = %(org)s AND {condition}",
            {"org": org_id},
        )
    (live_folders,) = one_row(conn.execute("SELECT count(*) FROM bench_live_folder"))
    # Row triggers (the per-type tallies, foreign keys) would fire a million times: skip them
    # while inserting rows that are right by construction, then rebuild what they maintain.
    conn.execute("SET session_replication_role = replica")
    words = {
        "org": org_id,
        "nouns": NOUNS,
        "n_nouns": len(NOUNS),
        "adjectives": ADJECTIVES,
        "n_adjectives": len(ADJECTIVES),
        "prefixes": PREFIXES,
        "n_prefixes": len(PREFIXES),
    }
    live_sql = FILES_SQL.format(folder_table="bench_live_folder", folder_k=LIVE_FOLDER_K)
    batch = 250_000
    for first in range(1, files + 1, batch):
        last = min(files, first + batch - 1)
        conn.execute(
            live_sql,
            {**words, "tag": "live", "first": first, "last": last, "live_folders": live_folders},
        )
    trashed_sql = FILES_SQL.format(folder_table="bench_trashed_folder", folder_k=TRASHED_FOLDER_K)
    conn.execute(
        trashed_sql,
        {
            **words,
            "tag": "trash",
            "first": 1,
            "last": TRASHED_FOLDERS * TRASHED_FILES_EACH,
            "trashed": TRASHED_FOLDERS,
        },
    )
    conn.execute("SET session_replication_role = DEFAULT")
    return _count_and_settle(conn, org_id)


def _count_and_settle(conn: psycopg.Connection, org_id: str) -> Seeded:
    """Set the organisation's counters (and per-type tallies) to the live files; VACUUM ANALYZE."""
    conn.execute(
        """
        UPDATE accounts_organisation o SET
            file_count = (SELECT count(*) FROM files_file
                          WHERE organisation_id = o.id AND deleted_at IS NULL),
            storage_used = (SELECT coalesce(sum(size), 0) FROM files_file
                            WHERE organisation_id = o.id AND deleted_at IS NULL)
        WHERE o.id = %(org)s
        """,
        {"org": org_id},
    )
    (has_tally,) = one_row(conn.execute("SELECT to_regclass('files_filetally') IS NOT NULL"))
    if has_tally:
        conn.execute("DELETE FROM files_filetally WHERE organisation_id = %(org)s", {"org": org_id})
        conn.execute(
            """
            INSERT INTO files_filetally (organisation_id, category, content_type, live_count)
            SELECT organisation_id, category, content_type, count(*) FROM files_file
            WHERE organisation_id = %(org)s AND deleted_at IS NULL
            GROUP BY organisation_id, category, content_type
            """,
            {"org": org_id},
        )
    # Autovacuum would get here on its own; do it now so every run measures the same state.
    conn.execute("VACUUM (ANALYZE) files_file")
    conn.execute("VACUUM (ANALYZE) folders_folder")
    conn.execute("VACUUM (ANALYZE) accounts_organisation")
    live, used = one_row(
        conn.execute(
            "SELECT file_count, storage_used FROM accounts_organisation WHERE id = %s", [org_id]
        )
    )
    (trashed,) = one_row(
        conn.execute(
            "SELECT count(*) FROM files_file WHERE organisation_id = %s AND deleted_at IS NOT NULL",
            [org_id],
        )
    )
    (folders,) = one_row(
        conn.execute("SELECT count(*) FROM folders_folder WHERE organisation_id = %s", [org_id])
    )
    (matches,) = one_row(
        conn.execute(
            "SELECT count(*) FROM files_file WHERE organisation_id = %s AND deleted_at IS NULL "
            "AND upper(name) LIKE upper(%s)",
            [org_id, f"%{SEARCH_WORD}%"],
        )
    )
    largest_id, largest_count = one_row(
        conn.execute(
            "SELECT folder_id, count(*) FROM files_file "
            "WHERE organisation_id = %s AND deleted_at IS NULL AND folder_id IS NOT NULL "
            "GROUP BY folder_id ORDER BY count(*) DESC, folder_id LIMIT 1",
            [org_id],
        )
    )
    by_mime: dict[str, int] = dict(
        conn.execute(
            "SELECT content_type, count(*) FROM files_file "
            "WHERE organisation_id = %s AND deleted_at IS NULL GROUP BY content_type",
            [org_id],
        ).fetchall()
    )
    by_category: dict[str, int] = dict(
        conn.execute(
            "SELECT category, count(*) FROM files_file "
            "WHERE organisation_id = %s AND deleted_at IS NULL GROUP BY category",
            [org_id],
        ).fetchall()
    )
    return Seeded(
        live_files=live,
        trashed_files=trashed,
        folders=folders,
        search_matches=matches,
        storage_used=used,
        largest_folder_id=largest_id,
        largest_folder_files=largest_count,
        mime_files=by_mime,
        category_files=by_category,
    )
