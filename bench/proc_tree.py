"""A process tree's pids and memory from ``/proc`` (Linux), for ``bench/bench_ssh.py``."""

from __future__ import annotations

from pathlib import Path


def tree_pids(root: int) -> set[int]:
    """``root`` and all its descendants (Linux ``/proc``)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                parents[int(entry.name)] = int(stat[stat.rindex(")") + 2:].split()[1])
            except (OSError, ValueError):
                continue
    tree, frontier = {root}, [root]
    while frontier:
        children = [pid for pid, ppid in parents.items() if ppid in frontier and pid not in tree]
        tree.update(children)
        frontier = children
    return tree


def tree_memory_mb(root: int) -> tuple[float, float]:
    """(PSS, RSS) in MB summed over ``root`` and all its descendants (Linux);
    (0, 0) without ``/proc``."""
    pss = rss = 0
    for pid in tree_pids(root):
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    pss += int(line.split()[1])
                elif line.startswith("Rss:"):
                    rss += int(line.split()[1])
        except (OSError, ValueError):
            continue
    return pss / 1024, rss / 1024
