"""Turning a user's message into candidate memories: the rules, the optional model, secrets."""
