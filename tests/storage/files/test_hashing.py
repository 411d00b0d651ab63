"""The SHA-256 of a stream hashed beside the request thread is the SHA-256 of its bytes."""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import random
import threading

from storage_service.files.hashing import StreamDigest


def test_chunks_of_any_size_hash_as_one_in_their_order():
    rng = random.Random(7)
    chunks = [os.urandom(rng.choice([0, 1, 2047, 2048, 65536, 1 << 20])) for _ in range(60)]
    digest = StreamDigest()
    for chunk in chunks:
        digest.update(chunk)
    assert digest.hexdigest() == hashlib.sha256(b"".join(chunks)).hexdigest()


def test_nothing_fed_is_the_empty_digest_and_asking_twice_gives_the_same():
    digest = StreamDigest()
    assert digest.hexdigest() == hashlib.sha256(b"").hexdigest()
    digest.update(b"abc")
    assert digest.hexdigest() == digest.hexdigest() == hashlib.sha256(b"abc").hexdigest()


def test_streams_hashed_at_once_on_many_threads_do_not_mix():
    streams = {i: [os.urandom(300_000) for _ in range(8)] for i in range(12)}
    results: dict[int, str] = {}

    def hash_stream(i: int) -> None:
        digest = StreamDigest()
        for chunk in streams[i]:
            digest.update(chunk)
        results[i] = digest.hexdigest()

    threads = [threading.Thread(target=hash_stream, args=(i,)) for i in streams]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == {i: hashlib.sha256(b"".join(c)).hexdigest() for i, c in streams.items()}


def _hash_in_child(results) -> None:
    digest = StreamDigest()
    digest.update(b"child" * 1000)
    results.put(digest.hexdigest())


def test_a_process_forked_after_hashing_hashes_too():
    parent = StreamDigest()
    parent.update(b"parent" * 1000)  # the parent's pool now has threads, which a fork drops
    assert parent.hexdigest() == hashlib.sha256(b"parent" * 1000).hexdigest()
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    child = context.Process(target=_hash_in_child, args=(results,))
    child.start()
    try:
        assert results.get(timeout=20) == hashlib.sha256(b"child" * 1000).hexdigest()
    finally:
        child.join(5)
        if child.is_alive():
            child.kill()
