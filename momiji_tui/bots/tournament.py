"""Seeded bot tournaments with seats rotated (ARCHITECTURE "Bots": strength is measured).

    result = run_tournament(["hard", "normal"], games=1000, seats=2, seed=0, jobs=2)


Every deal (``seed + deal``) is played once per rotation of the line-up, so
every bot plays every seat of every deal equally often (the duplicate format
of research/anchors.md §3.4). Bots get their own seeds, derived from the
tournament seed, the game and the seat, never from the deal.

This module is a runner, not a bot: it times decisions with
``time.perf_counter`` and may use ``multiprocessing``. The CLI
(``momiji tournament``) is ``tournament_cli.main_tournament(argv)``.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import math
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from ..engine import create_game, fold, run, score, view
from ..engine.rules_data import RULES_VERSION, rules_for
from . import make_bot
from .balance import MIN_BALANCE_SEATS as MIN_BALANCE_SEATS  # re-exported
from .balance import Z95, LandscapeStats, ObjectiveStats, landscape_balance, wilson
from .balance import objective_balance
from .balance_mode import RANDOM, format_landscapes, format_objectives, objective_owners, random_panoramas
from .evaluate import DEFAULT_WEIGHTS, Weights
from .hard import HARD_WEIGHTS, HardBot

# --------------------------------------------------------------------- one game


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One finished game, seat by seat."""

    game: int
    deal_seed: int
    lineup: tuple[str, ...]
    scores: tuple[int, ...]
    win_share: tuple[float, ...]
    acorns: tuple[int, ...]
    panoramas: tuple[tuple[str, ...], ...]
    rounds: int
    decisions: tuple[int, ...]
    think_times: tuple[tuple[float, ...], ...]
    objectives: tuple[tuple[str, int], ...] = ()  # revealed, with owner seat or -1


def bot_seed(seed: int, game: int, seat: int) -> int:
    """A bot's seed: from the tournament seed, game and seat (not the deal)."""
    h = hashlib.blake2b(f"bot|{seed}|{game}|{seat}".encode(), digest_size=8).digest()
    return int.from_bytes(h, "big") & 0x7FFF_FFFF


def _option_value(v: str) -> int | float | str:
    """A bot option's value: an int, else a float, else the word itself
    (e.g. ``leaf=learned``)."""
    for kind in (int, float):
        try:
            return kind(v)
        except ValueError:
            pass
    return v.strip()


def parse_bot(spec: str, budgets: Mapping[str, Mapping[str, Any]] | None) -> tuple[str, dict[str, Any]]:
    """``"hard"`` or ``"hard:iterations=300:horizon=1"`` → level and keywords.

    ``w.<name>=<value>`` items set a field of the bot's evaluation weights
    (``evaluate.Weights``; Hard starts from ``HARD_WEIGHTS``), e.g.
    ``"normal:w.opponent=0.8"``; a value that is not a number stays a
    word (``"hard:leaf=learned"``). Raises
    ``ValueError`` for an item without ``=``, an unknown weight, or for
    Hard an option it does not take or a word where it takes a number (or
    the other way round)."""
    level, _, rest = spec.partition(":")
    kw: dict[str, Any] = dict((budgets or {}).get(level, {}))
    weights: dict[str, float] = {}
    if rest:
        for item in rest.split(":"):
            k, eq, v = item.partition("=")
            if not eq:
                raise ValueError(f"bot option {item!r} needs a value: name=value")
            k = k.strip()
            if k.startswith("w."):
                if k[2:] not in Weights.__dataclass_fields__:
                    raise ValueError(f"unknown evaluation weight {k[2:]!r}")
                weights[k[2:]] = float(v)
            else:
                kw[k] = _option_value(v)
    if weights:
        base = kw.get("weights") or (HARD_WEIGHTS if level == "hard" else DEFAULT_WEIGHTS)
        kw["weights"] = replace(base, **weights)
    if level == "hard":
        _check_hard_options(kw)
    if kw.get("time_limit") is not None and "clock" not in kw:
        kw["clock"] = time.perf_counter
    return level, kw


def _check_hard_options(kw: Mapping[str, Any]) -> None:
    """Refuse (``ValueError``) a keyword ``HardBot`` does not take, or a
    value of the wrong kind: a word for an option whose default is a word
    (``leaf``, ``leaf_reward``), a number for the others."""
    params = inspect.signature(HardBot).parameters
    for k, v in kw.items():
        p = params.get(k)
        if p is None or k in ("seed", "name"):
            raise ValueError(f"Hard takes no option {k!r}")
        if k in ("clock", "weights"):
            continue
        word = isinstance(p.default, str)
        if word != isinstance(v, str):
            raise ValueError(f"Hard's option {k}={v!r} must be {'a word' if word else 'a number'}")


def play_game(lineup: tuple[str, ...], deal_seed: int, game: int, seed: int, *,
              landscape_mode: str = "draft",
              budgets: Mapping[str, Mapping[str, Any]] | None = None,
              max_decisions: int = 20000, rules_version: str = RULES_VERSION) -> GameRecord:
    """Play one seeded game between the bots of ``lineup`` (one per seat),
    under ``rules_version`` (raises ``ValueError`` for an unknown one)."""
    n = len(lineup)
    bots = []
    for i, spec in enumerate(lineup):
        level, kw = parse_bot(spec, budgets)
        bots.append(make_bot(level, bot_seed(seed, game, i), **kw))
    state = fold(create_game([f"{s}#{i}" for i, s in enumerate(lineup)], seed=deal_seed, game_id=f"t{deal_seed}",
                             rules_version=rules_version,
                             landscape_mode="draft" if landscape_mode == RANDOM else landscape_mode))
    state = random_panoramas(state, deal_seed) if landscape_mode == RANDOM else state
    times: list[list[float]] = [[] for _ in range(n)]
    count = 0
    while state.phase != "ended":
        seat = state.current
        v = view(state, seat)
        t0 = time.perf_counter()
        command = bots[seat].choose(v)
        times[seat].append(time.perf_counter() - t0)
        state, _ = run(state, command)
        count += 1
        if count > max_decisions:
            raise RuntimeError(f"game {game} did not end after {max_decisions} decisions")
    sheet = score(state)
    share = [0.0] * n
    for w in sheet.winners:
        share[w] = 1.0 / len(sheet.winners)
    return GameRecord(
        game=game, deal_seed=deal_seed, lineup=tuple(lineup),
        scores=tuple(s.total for s in sheet.seats), win_share=tuple(share),
        acorns=tuple(s.acorns for s in state.seats),
        panoramas=tuple(tuple(s.panorama) for s in state.seats),
        rounds=state.round - 1, decisions=tuple(len(t) for t in times),
        think_times=tuple(tuple(t) for t in times), objectives=objective_owners(state),
    )


def deal_seeds(seed: int, games: int, rotations: int, first: int = 0) -> list[int]:
    """The deal (engine seed) of games ``first`` … ``first + games - 1``: game
    ``g`` plays deal ``seed + g // rotations``, so ``games`` games from 0 play
    ``ceil(games / rotations)`` distinct deals, each once per rotation.

    Raises ``ValueError`` for a negative ``seed`` (RULES §2: the deal is drawn
    from its seed, and ``random.Random`` folds a negative seed onto its
    positive twin, which would play some deals twice) or ``rotations < 1``."""
    if seed < 0:
        raise ValueError(f"a tournament seed is a whole number 0 or more, not {seed}")
    if rotations < 1:
        raise ValueError("a tournament needs at least 1 rotation")
    return [seed + g // rotations for g in range(first, first + games)]


def lineups(bots: list[str], seats: int) -> list[tuple[str, ...]]:
    """The rotations of the line-up: seat ``j`` of rotation ``r`` gets
    ``bots[(j + r) % len(bots)]``, so over all rotations every bot sits in
    every seat the same number of times."""
    b = len(bots)
    return [tuple(bots[(j + r) % b] for j in range(seats)) for r in range(b)]


# --------------------------------------------------------------------- results


@dataclass(slots=True)
class BotStats:
    """One bot's results over the tournament (per seat it played)."""

    bot: str
    games: int = 0
    wins: float = 0.0
    win_rate: float = 0.0
    win_ci: tuple[float, float] = (0.0, 1.0)
    mean_score: float = 0.0
    mean_margin: float = 0.0
    margin_ci: tuple[float, float] = (0.0, 0.0)
    decisions: int = 0
    mean_decision_ms: float = 0.0
    p95_decision_ms: float = 0.0
    max_decision_ms: float = 0.0


@dataclass(slots=True)
class TournamentResult:
    """Everything ``run_tournament`` measured."""

    bots: list[str]
    games: int
    seats: int
    seed: int
    landscape_mode: str
    budgets: dict[str, dict[str, Any]]
    stats: list[BotStats]
    mean_rounds: float
    mean_decisions: float
    seconds: float | None  # None: not recorded (--report)
    landscapes: list[LandscapeStats] = field(default_factory=list)
    objectives: list[ObjectiveStats] = field(default_factory=list)  # --mode random only
    records: list[GameRecord] = field(default_factory=list)
    deals: int = 0  # distinct deals played (games / rotations, rounded up)
    rules_version: str = RULES_VERSION


def _percentile(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    ys = sorted(xs)
    k = min(len(ys) - 1, max(0, math.ceil(q * len(ys)) - 1))
    return ys[k]


def _mean_ci(xs: list[float]) -> tuple[float, tuple[float, float]]:
    n = len(xs)
    if n == 0:
        return 0.0, (0.0, 0.0)
    m = sum(xs) / n
    if n == 1:
        return m, (m, m)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    h = Z95 * sd / math.sqrt(n)
    return m, (m - h, m + h)


def summarize(records: list[GameRecord], bots: list[str]) -> list[BotStats]:
    """Per-bot statistics. A bot's margin in a game is its score minus the best
    other seat's score."""
    out = []
    for b in bots:
        st = BotStats(b)
        scores: list[float] = []
        margins: list[float] = []
        times: list[float] = []
        for r in records:
            for i, who in enumerate(r.lineup):
                if who != b:
                    continue
                st.games += 1
                st.wins += r.win_share[i]
                scores.append(r.scores[i])
                margins.append(r.scores[i] - max(s for j, s in enumerate(r.scores) if j != i))
                times.extend(r.think_times[i])
        if st.games:
            st.win_rate = st.wins / st.games
            st.win_ci = wilson(st.wins, st.games)
            st.mean_score = sum(scores) / len(scores)
            st.mean_margin, st.margin_ci = _mean_ci(margins)
        st.decisions = len(times)
        if times:
            st.mean_decision_ms = 1000 * sum(times) / len(times)
            st.p95_decision_ms = 1000 * _percentile(times, 0.95)
            st.max_decision_ms = 1000 * max(times)
        out.append(st)
    return out


def _run_one(args: tuple[Any, ...]) -> GameRecord:
    lineup, deal_seed, game, seed, mode, budgets, rules = args
    return play_game(lineup, deal_seed, game, seed, landscape_mode=mode, budgets=budgets, rules_version=rules)


def _count(n: int, noun: str) -> str:
    """``"1 deal"``, ``"8 deals"``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def run_tournament(bots: list[str], games: int, seats: int, seed: int, jobs: int = 1,
                   budgets: Mapping[str, Mapping[str, Any]] | None = None, *,
                   landscape_mode: str = "draft", keep_records: bool = False,
                   progress: Any = None, rules_version: str = RULES_VERSION,
                   first_game: int = 0, on_record: Any = None) -> TournamentResult:
    """Play ``games`` seeded games of ``seats`` seats between ``bots``.

    Game ``g`` plays deal ``seed + g // R`` with rotation ``g % R`` of the
    line-up (``R = len(bots)``), so pass a multiple of ``R`` games to give
    every bot every seat equally. ``budgets`` maps a level to its budget
    keywords (e.g. ``{"hard": {"iterations": 200}}``); a bot spec may also
    carry them (``"hard:iterations=200"``). ``jobs > 1`` plays games in that
    many processes; results do not depend on ``jobs``. ``first_game = K``
    plays games K … K + games − 1 of the same tournament (a long run in
    parts); ``on_record(record)`` is called as each game ends (to keep it).

    Raises ``ValueError`` for seats other than 2–4 (RULES §2), no bot, fewer
    than 1 game or job, or a negative seed (see ``deal_seeds``).
    """
    if not 2 <= seats <= 4:
        raise ValueError("seats must be 2, 3 or 4 (RULES §2)")
    if len(bots) < 1:
        raise ValueError("name at least one bot")
    if games < 1:
        raise ValueError(f"a tournament needs at least 1 game, not {games}")
    if jobs < 1:
        raise ValueError(f"a tournament needs at least 1 job, not {jobs}")
    if first_game < 0:
        raise ValueError(f"the first game is 0 or more, not {first_game}")
    rot = lineups(bots, seats)
    deals = deal_seeds(seed, games, len(rot), first_game)  # only this part's: a late part holds no earlier deal
    budgets_d = {k: dict(v) for k, v in (budgets or {}).items()}
    rules_for(rules_version)  # raises ValueError for an unknown version, before any game
    tasks = [(rot[g % len(rot)], deals[g - first_game], g, seed, landscape_mode, budgets_d, rules_version)
             for g in range(first_game, first_game + games)]
    t0 = time.perf_counter()
    records: list[GameRecord] = []
    if jobs > 1:
        import multiprocessing as mp

        with mp.get_context("spawn").Pool(jobs) as pool:
            for rec in pool.imap_unordered(_run_one, tasks, chunksize=1):
                records.append(rec)
                if on_record:
                    on_record(rec)
                if progress:
                    progress(len(records), games)
    else:
        for t in tasks:
            records.append(_run_one(t))
            if on_record:
                on_record(records[-1])
            if progress:
                progress(len(records), games)
    return result_from_records(records, bots, seats, seed, landscape_mode, budgets_d, rules_version,
                               seconds=time.perf_counter() - t0, keep_records=keep_records)


def result_from_records(records: list[GameRecord], bots: list[str], seats: int, seed: int, landscape_mode: str,
                        budgets: dict[str, dict[str, Any]], rules_version: str, *, seconds: float | None = None,
                        keep_records: bool = False) -> TournamentResult:
    """The tournament's tables from its game records (any order, any parts of
    one tournament: ``bots``, ``seats``, ``seed``, mode, budgets and rules are
    those the records were played with). ``seconds``: the run's wall time,
    None when unknown (records read back by ``--report``)."""
    records = sorted(records, key=lambda r: r.game)
    labels = list(dict.fromkeys(bots))
    stats = summarize(records, labels)
    return TournamentResult(
        bots=labels, games=len(records), seats=seats, seed=seed, landscape_mode=landscape_mode,
        budgets=budgets, stats=stats,
        mean_rounds=sum(r.rounds for r in records) / max(1, len(records)),
        mean_decisions=sum(sum(r.decisions) for r in records) / max(1, len(records)),
        seconds=seconds,
        landscapes=landscape_balance(records, stats) if landscape_mode in ("draft", RANDOM) else [],
        objectives=objective_balance(records, stats) if landscape_mode == RANDOM else [],
        records=records if keep_records else [],
        deals=len({r.deal_seed for r in records}), rules_version=rules_version,
    )


# --------------------------------------------------------------------- output


def format_result(result: TournamentResult) -> str:
    """A plain-text report: the bot table and the landscape balance table."""
    lines = [
        f"Tournament: {', '.join(result.bots)} — {_count(result.games, 'game')} on {_count(result.deals, 'deal')}, "
        f"{result.seats} seats, "
        f"seed {result.seed}, landscapes: {result.landscape_mode}, rules {result.rules_version}"
        + (f", budgets {result.budgets}" if result.budgets else ""),
        f"Mean game length: {result.mean_rounds:.1f} rounds, {result.mean_decisions:.0f} decisions; "
        + (f"wall time {result.seconds:.0f} s" if result.seconds is not None else "wall time not recorded (--report)"),
        "",
        f"{'bot':<24}{'seats':>6}{'wins':>8}{'win %':>7}  {'95% CI':<13}{'score':>7}"
        f"{'margin':>8}  {'margin CI':<15}{'ms mean':>8}{'ms p95':>8}{'ms max':>8}",
    ]
    for s in result.stats:
        lines.append(
            f"{s.bot:<24}{s.games:>6}{s.wins:>8.1f}{100 * s.win_rate:>6.1f}%  "
            f"[{100 * s.win_ci[0]:4.1f}, {100 * s.win_ci[1]:4.1f}] {s.mean_score:>7.1f}"
            f"{s.mean_margin:>+8.1f}  [{s.margin_ci[0]:+5.1f}, {s.margin_ci[1]:+5.1f}] "
            f"{s.mean_decision_ms:>8.1f}{s.p95_decision_ms:>8.1f}{s.max_decision_ms:>8.0f}"
        )
    lines += format_landscapes(result.landscapes, result.landscape_mode) + format_objectives(result.objectives)
    return "\n".join(lines)


def to_json(result: TournamentResult) -> str:
    """The result as JSON (records included only if kept)."""
    d = asdict(result)
    for b in d["budgets"].values():
        b.pop("clock", None)
    return json.dumps(d, indent=2, default=str)
