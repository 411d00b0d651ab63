"""Fuzzing both services with schemathesis, as CI runs it (``make fuzz``; ``python -m tests.fuzz``).

Each service is served by gunicorn (its deploy config) on a throwaway PostgreSQL database and
Redis, with a valid key, and schemathesis generates requests from the service's own OpenAPI
description for a bounded time. The run fails on any 500 and on any answer the description does
not allow (status, content type, headers, body), and when a log line of the run holds a key's
secret or a signed download link.
"""
