"""``momiji tournament``: the command line of the tournament runner.

    momiji tournament --bots normal,normal: --games 2000 --seats 2 --mode random
    momiji tournament ... --first-game 1000 --games 1000 --stream >> part2.jsonl
    cat part1.jsonl part2.jsonl | momiji tournament --report

A long run can be played in parts and kept as it goes: ``--stream`` writes a
header line and then one JSON line per game as it ends (to standard output,
the shell keeps it), ``--first-game K`` plays games K… of the same
tournament, and ``--report`` reads such lines on standard input (parts in any
order; a game seen twice counts once; a torn last line is left out and said)
and prints the tables, as if the whole
run had been played at once (docs/BALANCE.md). Like the runner, this module
touches no file: standard input and output only.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from dataclasses import asdict
from typing import Any, TextIO

from .. import argtypes
from ..engine.rules_data import RULES_BY_VERSION, RULES_VERSION
from . import LEVELS
from .balance_mode import RANDOM
from .tournament import (
    GameRecord, format_result, lineups, parse_bot, result_from_records, run_tournament, to_json,
)

STREAM_FORMAT = "momiji-tournament-records"


def record_to_line(record: GameRecord) -> str:
    """One game's record as a JSON line (no newline)."""
    return json.dumps({"game": asdict(record)}, separators=(",", ":"))


def record_from_dict(d: dict[str, Any]) -> GameRecord:
    """The record written by ``record_to_line`` (lists back to tuples).
    Raises ``KeyError``/``TypeError`` for a line that is not one."""
    return GameRecord(
        game=d["game"], deal_seed=d["deal_seed"], lineup=tuple(d["lineup"]), scores=tuple(d["scores"]),
        win_share=tuple(d["win_share"]), acorns=tuple(d["acorns"]),
        panoramas=tuple(tuple(p) for p in d["panoramas"]), rounds=d["rounds"], decisions=tuple(d["decisions"]),
        think_times=tuple(tuple(t) for t in d["think_times"]),
        objectives=tuple((o, s) for o, s in d.get("objectives", ())),
    )


#: Where a line written by ``--stream`` starts: a header or a game record
#: (``{"game":{"game":0,…`` — the inner ``"game":0`` is no start).
_LINE_START = re.compile(r'(?=\{"(?:header|game)": ?\{)')


def read_stream(lines: TextIO, warn: Callable[[str], None] | None = None) -> tuple[dict[str, Any], list[GameRecord]]:
    """The header and the records of streamed parts of ONE tournament.

    A game line cut short (a run stopped while writing it, so the next part
    appended to the file may go on on the same line) is skipped and told to
    ``warn``; the whole lines before and after it count. Raises
    ``ValueError`` naming the line when a line is not one ``--stream``
    writes, a header lacks a field of ``--stream``'s header, two headers
    disagree (another tournament), a record is not one of the header's games
    (its number, line-up, deal or seat count), or no header was read."""
    header: dict[str, Any] | None = None
    records: dict[int, tuple[int, GameRecord]] = {}
    text = list(lines)
    for n, line in enumerate(text, 1):
        if not line.strip():
            continue
        for obj in _line_objects(n, line, warn):
            try:
                if "header" in obj:
                    head = _header(obj["header"], n)
                    if header is None:
                        header = head
                    elif head != header:
                        raise ValueError(f"line {n}: another tournament ({head} after {header})")
                else:
                    rec = record_from_dict(obj["game"])
                    records[rec.game] = (n, rec)
            except (KeyError, TypeError, AttributeError) as exc:
                raise ValueError(f"line {n}: not a tournament line (neither the header nor a game "
                                 "that momiji tournament --stream writes)") from exc
    if header is None:
        raise ValueError("no header line: give the output of momiji tournament --stream")
    for n, rec in records.values():
        _check_record(rec, header, n)
    return header, [rec for _, rec in records.values()]


def _header(obj: object, n: int) -> dict[str, Any]:
    """The fields of a ``--stream`` header that make the tournament (not
    ``first_game``, ``games``). Raises ``ValueError`` for anything else."""
    ok = (isinstance(obj, dict) and obj.get("format") == STREAM_FORMAT
          and isinstance(obj.get("bots"), list) and bool(obj["bots"])
          and all(isinstance(b, str) for b in obj["bots"])
          and obj.get("seats") in (2, 3, 4) and isinstance(obj.get("seed"), int) and obj["seed"] >= 0
          and isinstance(obj.get("mode"), str) and isinstance(obj.get("budgets"), dict)
          and obj.get("rules") in RULES_BY_VERSION)
    if not ok:
        raise ValueError(f"line {n}: not the header of momiji tournament --stream "
                         "(format, bots, seats 2-4, seed, mode, budgets, rules)")
    assert isinstance(obj, dict)
    return {k: v for k, v in obj.items() if k not in ("first_game", "games")}


def _check_record(rec: GameRecord, header: dict[str, Any], n: int) -> None:
    """Raises ``ValueError`` unless ``rec`` is game ``rec.game`` of the
    tournament of ``header``: its line-up and deal (``lineups``,
    ``deal_seeds``) and one entry per seat in each per-seat field."""
    bots, seats = header["bots"], header["seats"]
    rot = lineups(bots, seats)
    g = rec.game
    why = ""
    if not isinstance(g, int) or isinstance(g, bool) or g < 0:
        why = f"game number {g!r}"
    elif rec.lineup != rot[g % len(rot)]:
        why = f"line-up {list(rec.lineup)}, not {list(rot[g % len(rot)])}"
    elif rec.deal_seed != header["seed"] + g // len(rot):
        why = f"deal {rec.deal_seed}, not {header['seed'] + g // len(rot)}"
    elif any(len(f) != seats for f in (rec.scores, rec.win_share, rec.acorns, rec.panoramas, rec.decisions,
                                       rec.think_times)):
        why = f"not one entry for each of the {seats} seats"
    if why:
        raise ValueError(f"line {n}: not a game of this tournament: {why}")


def _line_objects(n: int, line: str, warn: Callable[[str], None] | None) -> list[dict[str, Any]]:
    """The JSON objects of line ``n``: one, or, when a game line was cut short
    and the next part went on on the same line, what follows the cut."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        pieces = [p for p in _LINE_START.split(line.strip()) if p]
        if not pieces or not _LINE_START.match(line.strip()):
            raise ValueError(f"line {n}: not a tournament line ({exc})") from exc
        objs: list[dict[str, Any]] = []
        for piece in pieces:
            try:
                objs.append(json.loads(piece))
            except json.JSONDecodeError:
                if warn is not None:
                    warn(f"line {n}: skipped a game line cut short (a run stopped while writing it); "
                         "the games on the whole lines count")
        return objs
    if not isinstance(obj, dict):
        raise ValueError(f"line {n}: not a tournament line (neither the header nor a game "
                         "that momiji tournament --stream writes)")
    return [obj]


def build_parser() -> argparse.ArgumentParser:
    """The ``momiji tournament`` argument parser."""
    p = argparse.ArgumentParser(prog="momiji tournament", description="Seeded bot tournament with seats rotated.")
    p.add_argument("--bots", default="normal,easy",
                   help="comma-separated levels (easy, normal, hard); a level may carry a budget, "
                        "e.g. hard:iterations=200 (more keywords: hard:iterations=200:horizon=1)")
    p.add_argument("--games", type=argtypes.whole_number(1), default=100, help="games to play (1 or more)")
    p.add_argument("--first-game", type=argtypes.whole_number(0), default=0, metavar="K",
                   help="play games K, K+1, … of the tournament (a long run in parts; default 0)")
    p.add_argument("--seats", type=int, choices=(2, 3, 4), default=2)
    p.add_argument("--seed", type=argtypes.seed, default=0,
                   help="deal of the first game (0 or more); game g plays deal seed + g // (number of bots)")
    p.add_argument("--jobs", type=argtypes.whole_number(1), default=1, help="processes (1 or more)")
    p.add_argument("--mode", choices=("draft", "starter", RANDOM), default="draft",
                   help="landscapes: draft, starter, or random (balance mode: panoramas at random, docs/BALANCE.md)")
    p.add_argument("--rules", choices=tuple(RULES_BY_VERSION), default=RULES_VERSION, help="rules version to play")
    p.add_argument("--iterations", type=argtypes.whole_number(1), default=None, help="Hard: iterations per decision")
    p.add_argument("--time-limit", type=argtypes.positive_seconds, default=None,
                   help="Hard: seconds per decision (wall clock)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print JSON instead of the table")
    out.add_argument("--stream", action="store_true",
                     help="print a header line, then one JSON line per game as it ends (keep them: >> FILE)")
    out.add_argument("--report", action="store_true",
                     help="play nothing: read --stream lines on standard input and print the tables")
    p.add_argument("--progress", action="store_true", help="report progress on stderr")
    return p


def _warn(message: str) -> None:
    print(f"momiji tournament --report: {message}", file=sys.stderr)


def main_tournament(argv: list[str]) -> int:
    """``momiji tournament --bots hard,normal --games N --seats K --seed S --jobs J [--json|--stream|--report]``."""
    p = build_parser()
    a = p.parse_args(argv)
    if a.report:
        try:
            h, records = read_stream(sys.stdin, warn=_warn)
        except ValueError as exc:
            p.error(f"--report: {exc}")
        result = result_from_records(records, h["bots"], h["seats"], h["seed"], h["mode"], h["budgets"], h["rules"])
        print(format_result(result))
        return 0
    bots = [b.strip() for b in a.bots.split(",") if b.strip()]
    if not bots:
        p.error("argument --bots: name at least one bot, e.g. --bots normal,easy")
    for spec in bots:
        try:
            level, _ = parse_bot(spec, None)
        except ValueError as exc:
            p.error(f"argument --bots: {exc}")
        if level not in LEVELS:
            p.error(f"argument --bots: unknown bot level {level!r}: choose one of {', '.join(LEVELS)}")
    budgets: dict[str, dict[str, Any]] = {}
    if a.iterations is not None:
        budgets.setdefault("hard", {})["iterations"] = a.iterations
    if a.time_limit is not None:
        budgets.setdefault("hard", {})["time_limit"] = a.time_limit
    prog = None
    if a.progress:
        def prog(done: int, total: int) -> None:
            if done % max(1, total // 20) == 0 or done == total:
                print(f"{done}/{total} games", file=sys.stderr, flush=True)
    on_record = None
    if a.stream:
        header = {"format": STREAM_FORMAT, "bots": bots, "seats": a.seats, "seed": a.seed, "mode": a.mode,
                  "budgets": budgets, "rules": a.rules, "first_game": a.first_game, "games": a.games}
        print(json.dumps({"header": header}), flush=True)

        def on_record(rec: GameRecord) -> None:
            print(record_to_line(rec), flush=True)
    result = run_tournament(bots, a.games, a.seats, a.seed, a.jobs, budgets, landscape_mode=a.mode, progress=prog,
                            rules_version=a.rules, first_game=a.first_game, on_record=on_record)
    if not a.stream:
        print(to_json(result) if a.json else format_result(result))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main_tournament(sys.argv[1:]))
