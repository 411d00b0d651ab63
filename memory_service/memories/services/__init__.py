"""Writes to memories and turns, one module per what they write.

``batch`` files statements against what an organisation holds (stored, merged or contradicting);
``memories`` stores statements outright, moves and forgets memories; ``turns`` learns from a turn.
"""
