"""The strategy reports' sections, one module per game.

Each module has ``runs(scale, seed, progress)``, every simulation its report shows (a dict of tables, no
plotting), and one function per section that takes those runs and returns a :class:`analysis.report.Section`
whose figures are drawn only when the report is written. ``report(scale, seed, progress)`` puts them together
as ``(title, introduction, sections)``, which a game's ``report_sections`` returns.
"""
