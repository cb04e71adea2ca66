"""``cardlab serve``: a local page for the advisor and the review (:mod:`.app`), on uvicorn."""

from __future__ import annotations

import ipaddress
import socket
from pathlib import Path

from ..errors import CardlabError
from ..tables import note
from .app import create_app

__all__ = ["create_app", "serve"]


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def serve(
    host: str = "127.0.0.1",
    port: int = 8765,
    reports: str | Path = "reports",
    max_pending: int = 4,
    max_seconds: float = 300.0,
    max_trials: int = 5_000_000,
) -> None:
    """Serve the page until Ctrl-C (or SIGTERM); a port in use or an address that cannot be bound is one line."""
    import uvicorn

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((host, port))
    except OSError as e:
        raise CardlabError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    if not _loopback(host):
        note(
            f"warning: listening on {host}, not on this machine only: anyone who can reach it may run "
            "analyses (there is no password)"
        )
    app = create_app(reports=reports, max_pending=max_pending, max_seconds=max_seconds, max_trials=max_trials)
    shown = f"[{host}]" if ":" in host else host
    note(f"serving on http://{shown}:{port}/ (the API at /docs; Ctrl-C stops it)")
    uvicorn.run(app, host=host, port=port, log_level="warning")
