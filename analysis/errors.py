"""The one error type the command line turns into a plain line and exit code 2."""

from __future__ import annotations


class CardlabError(ValueError):
    """Bad input: the message names the problem and, where there is a list, the accepted values."""


class Interrupted(RuntimeError):
    """A run was stopped (Ctrl-C or SIGTERM); what was done is kept in the checkpoint, if one was given.
    ``exit_code``: 130 after SIGINT, 143 after SIGTERM (128 + the signal, as a shell reports it)."""

    def __init__(self, message: str, exit_code: int = 130):
        super().__init__(message)
        self.exit_code = exit_code


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread by the CLI's handler so it unwinds exactly as Ctrl-C does."""


def accepted(values) -> str:
    """Format a list of accepted values for an error message."""
    return ", ".join(str(v) for v in values)


class SaveFailed(RuntimeError):
    """Writing failed after work had started (a full disk, say): what was saved before is kept."""


class PrecisionNotReached(RuntimeError):
    """Precision mode stopped at the trial cap short of its target; the result was written (exit 3)."""


class BackendFailed(RuntimeError):
    """A backend lost its workers or its scheduler; the chunks saved before are kept (exit 75, resumable)."""


class Cancelled(RuntimeError):
    """A run was stopped by its observer (``cardlab serve``: the person cancelled it, or the server's time
    limit was reached); nothing is kept."""
