"""Peak memory for command summaries (the process's peak resident set size).

May import: the standard library.
"""

from __future__ import annotations


def peak_rss_mb() -> float:
    """Peak resident set size of this process so far (kernel's ru_maxrss), in MB."""
    import resource
    import sys

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024

