"""Plain Python that both services need: API key secrets and rate limiting."""
