"""Recall is a module with a small public surface that knows nothing of the memories app.

Context, recall and reconciliation all rank; they reach the index only through these names, so
that the index can change inside without their noticing.
"""

from __future__ import annotations

import ast
from pathlib import Path

import memory_service

PACKAGE = Path(memory_service.__file__).parent
RECALL = PACKAGE / "recall"
PUBLIC = {
    "memory_service.recall.index": {"Entry", "index_entries", "unindex", "reindex"},
    "memory_service.recall.search": {"Match", "search", "holders"},
    "memory_service.recall.text": {"terms", "query_words", "STOP_WORDS"},
}


def imports(path: Path) -> list[tuple[str, str | None]]:
    """Return (module, name) for every import in ``path``; name is None for ``import x``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            found += [(node.module, alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [(alias.name, None) for alias in node.names]
    return found


def test_recall_never_imports_the_memories_app():
    offending = [
        (str(path.relative_to(PACKAGE)), module)
        for path in RECALL.rglob("*.py")
        for module, _ in imports(path)
        if module.startswith("memory_service.memories")
    ]
    assert offending == []


def test_the_rest_of_the_service_uses_only_recalls_public_surface():
    outside = [path for path in PACKAGE.rglob("*.py") if RECALL not in path.parents]
    used = {
        (str(path.relative_to(PACKAGE)), module, name)
        for path in outside
        for module, name in imports(path)
        if module.startswith("memory_service.recall")
    }
    assert used, "nothing uses recall: the test would pass vacuously"
    private = sorted(
        (where, module, name) for where, module, name in used if name not in PUBLIC.get(module, ())
    )
    assert private == []
