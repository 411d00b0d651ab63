"""The scale-out check (``make scale-out-check``, ``python -m tests.scale_out``).

Two gunicorn instances of each service on their own ports, sharing one PostgreSQL and one Redis
(and, for storage, one S3 object store: moto's standalone server), each with its own local
directories, as two hosts behind a load balancer would be. Through the instances' HTTP API it
checks what must hold across them: a plan's hourly limit, request usage, a key revocation, a
folder deletion, a file's bytes, and concurrent restatements of one memory.

Not a pytest suite: it starts servers. Everything is thrown away at the end, also on failure.
"""
