"""``cardlab ARGS`` run in the test's own process: the same ``analysis.cli.main`` the console script calls, its
stdout and stderr captured. A new interpreter a call spends about a second importing the package; the tests that
are about the console script itself (``python -m analysis``) keep a subprocess."""

from __future__ import annotations

import contextlib
import io


def cli(*args: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``cardlab *args``; argparse's own exits (``--help``) give their code."""
    from analysis.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as e:  # argparse's --help and --version
            code = e.code if isinstance(e.code, int) else int(e.code is not None)
    return code, out.getvalue(), err.getvalue()
