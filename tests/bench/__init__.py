"""Benchmarks run against a real server (``make bench``); not collected by pytest."""
