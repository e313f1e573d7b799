"""The errors every layer may meet: an illegal action and malformed state JSON."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action (id or text) that is not legal in the current state; the state is unchanged."""


class StateFormatError(ValueError):
    """Malformed or inconsistent state JSON."""
