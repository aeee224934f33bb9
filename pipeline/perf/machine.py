"""The machine a timing ran on, as the perf scripts' reports give it (``build_scale``,
``spacy_pin``): cores, CPU model, RAM, system, load average before the run (and the Python
version when asked).

May import: the standard library.
"""

from __future__ import annotations

import os
import platform
from pathlib import Path


def machine_info(python: bool = False) -> dict:
    """``cores``, ``cpu``, ``ram_gb`` (None when /proc/meminfo cannot be read), ``system``,
    ``python`` (with ``python``) and ``load_before`` (the load averages, one decimal)."""
    cpu, ram = "", None
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                ram = int(line.split()[1]) / 2**20
                break
    except (OSError, ValueError):
        pass
    info = {"cores": os.cpu_count() or 1, "cpu": cpu or platform.processor() or "unknown CPU", "ram_gb": ram,
            "system": f"{platform.system()} {platform.release()}"}
    if python:
        info["python"] = platform.python_version()
    info["load_before"] = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return info
