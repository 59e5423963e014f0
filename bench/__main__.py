"""Run every benchmark and print one table; write bench/results.json.

    python -m bench            # full runs
    python -m bench --quick    # fewer repetitions
    python -m bench engine app # only some modules (bench_<name>.py)

Each ``bench/bench_*.py`` module has ``run(quick: bool) -> list[dict]`` rows
(see ``bench.common.row``). Timings are medians of repeated runs on this
machine; the targets are those of the project's issues.
"""

from __future__ import annotations

import argparse
import importlib
import json
import platform
import sys
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent


def modules() -> list[str]:
    """Every benchmark module's short name, sorted."""
    return sorted(p.stem[len("bench_"):] for p in HERE.glob("bench_*.py"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("names", nargs="*", help=f"modules to run (default: all of {', '.join(modules())})")
    args = parser.parse_args(argv)
    rows: list[dict] = []
    failed = False
    for name in args.names or modules():
        try:
            module = importlib.import_module(f"bench.bench_{name}")
            rows += module.run(args.quick)
        except Exception:  # one broken benchmark must not hide the others
            failed = True
            print(f"benchmark module {name} failed:", file=sys.stderr)
            traceback.print_exc()
    width = max((len(r["benchmark"]) for r in rows), default=10)
    print(f"{'benchmark':{width}}  {'value':>12}  {'unit':10}  {'target':>10}  met?")
    for r in rows:
        target = "" if r["target"] is None else f"{'≥' if r['higher_is_better'] else '≤'}{r['target']}"
        met = "" if r["met"] is None else ("yes" if r["met"] else "NO")
        print(f"{r['benchmark']:{width}}  {r['value']:>12}  {r['unit']:10}  {target:>10}  {met}")
    out = {"machine": {"python": platform.python_version(), "processor": platform.machine(),
                       "cores": __import__("os").cpu_count()}, "quick": args.quick, "results": rows}
    (HERE / "results.json").write_text(json.dumps(out, indent=2) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
