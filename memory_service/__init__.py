"""The memory service: organisations, scoped API keys and (later) agent memory, at /api/v1."""
