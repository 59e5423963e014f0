"""Import checks everything it will later trust (ARCHITECTURE "Saves"): the
header is held to the same schema the loader uses (``seat_configs``), the
events to the engine's, so a save that imports also resumes, replays and
lists. A property test mutates real saves: import either refuses with one
line, or the game resumes, replays and lists."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from momiji_tui.session.replay import Replay
from momiji_tui.session.saves import describe_saved_games
from momiji_tui.session.table import Table, validate_log
from momiji_tui.store import StoreError, import_game, load

from saves_helpers import saved_game

_SAVE: dict[str, list] = {}


def _real_save_lines() -> list:
    """A real game (a few moves in), as its JSON objects, made once."""
    if "lines" not in _SAVE:
        with tempfile.TemporaryDirectory() as folder:
            path = saved_game(Path(folder), seed=5, commands=12)
            _SAVE["lines"] = [json.loads(line) for line in path.read_text().splitlines()]
    return json.loads(json.dumps(_SAVE["lines"]))  # a fresh copy


def _imports_then_works_or_refuses_in_one_line(lines: list, raw: bytes | None = None) -> str:
    with tempfile.TemporaryDirectory() as folder:
        src, data = Path(folder) / "friend.jsonl", Path(folder) / "data"
        src.write_bytes(raw if raw is not None else
                        b"".join(json.dumps(o, ensure_ascii=False).encode("utf-8", "surrogatepass") + b"\n"
                                 for o in lines))
        try:
            game_id = import_game(data, src, validate_log)
        except StoreError as exc:
            assert "\n" not in str(exc) and str(exc)
            return "refused"
        path = data / "games" / f"{game_id}.jsonl"
        table = Table.resume(path)  # resumes
        table.close()
        replay = Replay.from_dicts(load(path).events)
        replay.end()
        replay.narrate(None)  # replays
        rows = describe_saved_games(data)  # lists
        assert [r.game_id for r in rows] == [game_id] and rows[0].problem is None
        return "imported"


@pytest.mark.parametrize("seats", [
    [{"name": "Ada", "kind": "human", "level": None, "colour": "red"},
     {"name": "Bo", "kind": "bot", "level": "easy"}],
    ["Ada", "Bo"],
    [],
    [{"name": "Ada", "kind": "human", "level": None}],
    [{"name": "Ada", "kind": "human", "level": None}, {"name": "Bo", "kind": "bot", "level": "godlike"}],
    [{"name": 7, "kind": "human", "level": None}, {"name": "Bo", "kind": "bot", "level": "easy"}],
])
def test_import_refuses_a_header_whose_seats_resume_could_not_use(seats):
    lines = _real_save_lines()
    lines[0]["seats"] = seats
    assert _imports_then_works_or_refuses_in_one_line(lines) == "refused"


_JSON = st.recursive(st.none() | st.booleans() | st.integers(-2, 200) | st.text(max_size=6),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                                    max_size=3), max_leaves=5)


@st.composite
def _mutated(draw: st.DrawFn) -> list:
    lines = _real_save_lines()
    for _ in range(draw(st.integers(1, 3))):
        target = lines[draw(st.sampled_from([0, 0, 1, 1, -1, draw(st.integers(0, len(lines) - 1))]))]
        while True:  # walk into the value, then change, add or drop something there
            keys = list(target) if isinstance(target, dict) else list(range(len(target)))
            if not keys:
                break
            key = draw(st.sampled_from(keys))
            child = target[key]
            if isinstance(child, (dict, list)) and child and draw(st.booleans()):
                target = child
                continue
            action = draw(st.sampled_from(["set", "set", "drop", "add"]))
            if action == "set":
                target[key] = draw(_JSON)
            elif action == "drop":
                del target[key]
            elif isinstance(target, dict):
                target[draw(st.text(min_size=1, max_size=6))] = draw(_JSON)
            else:
                target.append(draw(_JSON))
            break
    return lines


@settings(max_examples=30)
@given(_mutated())
def test_a_mutated_save_either_refuses_in_one_line_or_resumes_replays_and_lists(lines):
    _imports_then_works_or_refuses_in_one_line(lines)


def test_the_unmutated_save_imports():
    assert _imports_then_works_or_refuses_in_one_line(_real_save_lines()) == "imported"
