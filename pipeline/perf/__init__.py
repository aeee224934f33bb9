"""Timing, fidelity and code-path scripts (``make perf``, ``make perf-*``; the old ``make bench*``
names are aliases): each is run as ``python -m pipeline.perf.NAME`` and prints medians, ratios or
figures measured side by side (``call_path``: the files one book runs through to a quadruple). Scripts, not tests, and not commands. ("Benchmark" names the
pro/anti-stereotype test sets, never these.)

May import: everything in :mod:`pipeline` but the commands (:mod:`pipeline.commands`).
"""
