"""cardlab's analysis layer: rules, the chunked driver, statistics, tables, charts, reports and the CLI."""

from __future__ import annotations

try:
    from importlib.metadata import version as _version

    __version__ = _version("cardlab")
except Exception:  # pragma: no cover -- running from a source tree that is not installed
    __version__ = "0.1.0"
