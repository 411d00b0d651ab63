"""Recall: ranked retrieval (BM25, MaxScore) over an inverted index of memories by id and text."""
