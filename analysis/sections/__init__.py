"""The strategy reports' sections, one module per game.

Each module has ``runs(scale, seed, progress)``, every simulation its report shows (a dict of tables, no
plotting), and one function per section that takes those runs and returns a :class:`analysis.report.Section`
whose figures are drawn only when the report is written. ``report(scale, seed, progress)`` puts them together
as ``(title, introduction, sections)``, which a game's ``report_sections`` returns.
"""

from importlib import import_module
from types import ModuleType

#: the section module of each game id that has a report
MODULES = {
    "bisko-bobo": "bisko_bobo",
    "biscuits": "biscuits",
    "bismarck": "bismarck",
    "zheng-shangyou": "zheng_shangyou",
}


def module(game_id: str) -> ModuleType | None:
    """The section module of ``game_id``, or None."""
    name = MODULES.get(game_id)
    return import_module(f"{__name__}.{name}") if name else None
