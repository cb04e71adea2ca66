"""The one error type the command line turns into a plain line and exit code 2."""

from __future__ import annotations


class CardlabError(ValueError):
    """Bad input: the message names the problem and, where there is a list, the accepted values."""


class Interrupted(RuntimeError):
    """A run was stopped (Ctrl-C); what was done is kept in the checkpoint, if one was given."""


def accepted(values) -> str:
    """Format a list of accepted values for an error message."""
    return ", ".join(str(v) for v in values)
