"""Many saved games: the menu, Continue, Saved games and ``momiji list``
with 50 and 5,000 saves (targets: menu under 1 s, list under 2 s and
150 MB). Each figure is measured in a fresh process (the first look at a
folder, as a player starting momiji sees it), then once more in the same
folder (what a second start costs).

    python -m bench saves
    MOMIJI_BENCH_SRC=/path/to/other/checkout python -m bench saves   # the same, for another copy of momiji
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from .common import row

#: Run inside the measuring process: import momiji from MOMIJI_BENCH_SRC when set.
_PRELUDE = """
import os, sys, time, resource
src = os.environ.get("MOMIJI_BENCH_SRC")
if src:
    sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in repr(f).lower()]
    sys.path.insert(0, src)
"""

_APP = _PRELUDE + """
import asyncio
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.screens.menu import MenuScreen
from momiji_tui.ui.screens.saved import SavedGamesScreen
from momiji_tui.ui.screens.table import TableScreen

async def until(pilot, kind):
    for _ in range(2000):
        if isinstance(pilot.app.screen, kind):
            return
        await pilot.pause(0.005)
    raise SystemExit(f"never reached {kind.__name__}")

async def main(data):
    out = {}
    start = time.perf_counter()
    app = MomijiApp(data, bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, MenuScreen)
        await pilot.pause()
        out["menu"] = time.perf_counter() - start
        start = time.perf_counter()
        app.push_screen(SavedGamesScreen())
        await until(pilot, SavedGamesScreen)
        await pilot.pause()
        out["saved games"] = time.perf_counter() - start
        await pilot.press("escape")
        await until(pilot, MenuScreen)
        start = time.perf_counter()
        await pilot.press("c")
        await until(pilot, TableScreen)
        await pilot.pause()
        out["continue"] = time.perf_counter() - start
    print(json.dumps(out))

import json
asyncio.run(main(sys.argv[1]))
"""

_LIST = _PRELUDE + """
from momiji_tui import cli
start = time.perf_counter()
with open(os.devnull, "w") as sink:
    real, sys.stdout = sys.stdout, sink
    code = cli.main(["list"])
    sys.stdout = real
seconds = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"list": seconds, "list_mb": usage.ru_maxrss / 1024, "list_cpu": usage.ru_utime + usage.ru_stime,
                  "code": code}))
import json
""".replace('import json\n"""', '"""')


_MAKE = _PRELUDE + """
from pathlib import Path
from bench.bench_saves import make_saves
make_saves(Path(sys.argv[1]), int(sys.argv[2]))
"""


def make_saves(folder: Path, count: int) -> None:
    """``count`` copies of one real game in progress, each under its own id,
    last played a second apart (saved by the momiji this process imports)."""
    from momiji_tui.bots import make_bot
    from momiji_tui.session.table import BOT, HUMAN, SeatConfig, Table

    with tempfile.TemporaryDirectory() as scratch:
        table = Table.new([SeatConfig("Ann", HUMAN), SeatConfig("Kaede", BOT, "easy")], seed=3, data_dir=scratch)
        for step in range(30):
            table.submit(make_bot("easy", seed=step).choose(table.view(table.current)))
        table.close()
        template = table.log.path.read_text()
        old_id = table.game_id
    games = folder / "games"
    games.mkdir(parents=True, exist_ok=True)
    base = datetime(2026, 1, 1, tzinfo=UTC)
    for i in range(count):
        moment = base + timedelta(seconds=i)
        game_id = f"{moment:%Y%m%d-%H%M%S}-{i:06x}"
        (games / f"{game_id}.jsonl").write_text(template.replace(old_id, game_id))


def _measure(script: str, data: Path, *args: str) -> dict:
    env = {**os.environ, "MOMIJI_DATA_DIR": str(data), "MOMIJI_CONFIG_DIR": str(data / "config")}
    done = subprocess.run([sys.executable, "-c", "import json\n" + script, str(data), *args], capture_output=True,
                          text=True, env=env, check=True, cwd=Path(__file__).parent.parent)
    lines = done.stdout.strip().splitlines()
    return json.loads(lines[-1]) if lines else {}


def run(quick: bool) -> list[dict]:
    rows = []
    for count in (50, 5000):
        with tempfile.TemporaryDirectory(prefix="momiji-bench-saves-") as folder:
            data = Path(folder)
            _measure(_MAKE, data, str(count))  # saved by the momiji measured (its own save format)
            for look in ("first", "second"):
                listed = _measure(_LIST, data)
                app = _measure(_APP, data)
                rows.append(row(f"saves {count}: list ({look} look)", listed["list"], "s", 2.0, False))
                rows.append(row(f"saves {count}: list CPU ({look} look)", listed["list_cpu"], "s", None, False))
                rows.append(row(f"saves {count}: list peak RSS ({look} look)", listed["list_mb"], "MB", 150, False))
                rows.append(row(f"saves {count}: menu ({look} look)", app["menu"], "s", 1.0, False))
                rows.append(row(f"saves {count}: Saved games ({look} look)", app["saved games"], "s", None, False))
                rows.append(row(f"saves {count}: Continue ({look} look)", app["continue"], "s", None, False))
                if quick:
                    break
    return rows
