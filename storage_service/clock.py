"""The one clock this service reads (tests move it by patching ``now`` here), and the one way it
writes timestamps: both as ``shared.clock`` has them."""

from __future__ import annotations

from shared.clock import iso, now

__all__ = ["iso", "now"]
