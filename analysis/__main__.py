"""``python -m analysis`` and the ``cardlab`` command: the CLI, with a Ctrl-C during start-up (importing
pandas, numba and the games takes about a second) answered in one line like one during the run."""

import sys


def entry() -> int:
    try:
        from .cli import main
    except KeyboardInterrupt:
        print("cardlab: interrupted", file=sys.stderr)
        return 130
    return main()


if __name__ == "__main__":
    sys.exit(entry())
