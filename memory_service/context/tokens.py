"""Counting tokens as OpenAI's cl100k_base does, from the vocabulary shipped in this package.

tiktoken would download the vocabulary on first use; the service never fetches anything at run
time, so the file ships beside this module and is checked against the SHA-256 that tiktoken
itself pins for it before a single token is counted.
"""

from __future__ import annotations

import base64
import functools
import hashlib
from pathlib import Path

import tiktoken
from django.core.exceptions import ImproperlyConfigured

VOCABULARY = Path(__file__).with_name("cl100k_base.tiktoken")
# tiktoken_ext.openai_public.cl100k_base: the file's hash and the pre-tokeniser it pairs with.
VOCABULARY_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
SPECIAL_TOKENS = {
    "<|endoftext|>": 100257,
    "<|fim_prefix|>": 100258,
    "<|fim_middle|>": 100259,
    "<|fim_suffix|>": 100260,
    "<|endofprompt|>": 100276,
}


@functools.cache
def encoding() -> tiktoken.Encoding:
    """Return the cl100k_base encoding, read once per process from the shipped vocabulary."""
    data = VOCABULARY.read_bytes()
    if hashlib.sha256(data).hexdigest() != VOCABULARY_SHA256:
        raise ImproperlyConfigured(f"{VOCABULARY} is not cl100k_base: its SHA-256 differs.")
    ranks = {}
    for line in data.splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return tiktoken.Encoding(
        name="cl100k_base",
        pat_str=PATTERN,
        mergeable_ranks=ranks,
        special_tokens=SPECIAL_TOKENS,
    )


def count(text: str) -> int:
    """Return how many cl100k_base tokens ``text`` is, special-token spellings as plain text."""
    return len(encoding().encode_ordinary(text))
