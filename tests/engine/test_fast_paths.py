"""The fast paths agree with the plain ones (docs/PERFORMANCE.md).

* ``legal_commands`` (placement checked without exceptions, pruned subset
  enumeration) lists exactly what the straightforward reference below lists,
  in the same order;
* ``sample_command`` returns only commands ``decide`` accepts and that are
  equivalent to a listed one (the equivalence of legal.py: same kinds of
  cards, same outcome up to cards differing only by their letter), reaches
  every kind of command legal in a state, and every listed command;
* ``run`` (one working copy, the lazy undo checkpoint, shared piles) ends in
  the same state as ``decide`` + ``apply_in_place`` on a ``clone``, as
  ``apply`` event by event, as ``run_in_place``, and as ``fold`` of the log,
  Undo included; ``run_in_place`` refuses what ``run`` refuses, with the
  same message, and then leaves the state unchanged.
"""

from __future__ import annotations

import random
from dataclasses import replace
from collections.abc import Callable, Hashable, Iterator, Sequence
from itertools import combinations, permutations, product

import pytest
from hypothesis import settings

from momiji_tui.engine import (
    GameState, IllegalCommand, Play, Undo, UseLandscape, apply, apply_in_place, create_game, decide,
    fold, legal_commands, run, run_in_place,
)
from momiji_tui.engine import commands as cmd
from momiji_tui.engine.cards import CARD_KIND, CARD_NAME, CARD_TYPE, CARD_VALUE, Card, cards_of_types
from momiji_tui.engine.decide import plan_placement
from momiji_tui.engine.rules_data import (
    EXCHANGE_DISCARD, HAND_LIMIT, LANDSCAPE_COST, LANDSCAPES, LEAF_TYPES,
    MIDDAY, OBJECTIVE_COST, PARTS, REVEAL_COST, SAME_TYPE_MAX,
)
from momiji_tui.engine.sample import sample_command
from momiji_tui.engine.state import DRAFT, PLAY, SeatState

from engine_games import choose, games
from engine_helpers import NAMES, Outcomes, check_conservation, table
from test_properties_commands import mutate, random_command

# ------------------------------------------------- reference legal_commands
# The straightforward enumeration legal.py began with: every candidate is
# checked by ``plan_placement`` (which raises), subsets are enumerated
# without pruning, and every arrangement of a mixed play is checked.


def _ref_hand_key(seat: SeatState) -> Callable[[Card], Hashable]:
    known = set(seat.known)
    return lambda c: (CARD_KIND[c], c in known)


def _ref_distinct(cards: Sequence[Card], key: Callable[[Card], Hashable] = CARD_KIND.__getitem__,
                  ) -> list[Card]:
    seen: set = set()
    out = []
    for c in sorted(cards):
        k = key(c)
        if k not in seen:
            seen.add(k)
            out.append(c)
    return out


def _ref_kind_subsets(cards, lo, hi, key=CARD_KIND.__getitem__) -> Iterator[tuple[Card, ...]]:
    groups: dict = {}
    for c in sorted(cards):
        groups.setdefault(key(c), []).append(c)
    kinds = list(groups.values())

    def rec(i: int, chosen: list[Card]) -> Iterator[tuple[Card, ...]]:
        if len(chosen) > hi:
            return
        if i == len(kinds):
            if len(chosen) >= lo:
                yield tuple(chosen)
            return
        for k in range(len(kinds[i]) + 1):
            yield from rec(i + 1, chosen + kinds[i][:k])

    yield from rec(0, [])


def _ref_objective_cost(state: GameState) -> int:
    return state.rules.pagoda_objective_cost if state.turn.boost == "pagoda" else OBJECTIVE_COST


def _ref_placeable(seat: SeatState, card: Card, jump: int) -> bool:
    pile = seat.pile_of(CARD_TYPE[card])
    if pile is None:
        return CARD_VALUE[card] == 0
    if pile.closed:
        return False
    step = CARD_VALUE[card] - pile.top_value
    return step in (0, 1) or 0 < step <= jump


def _ref_fits(seat: SeatState, cards, sides, jump: int) -> bool:
    try:
        plan_placement(seat, cards, sides, jump_step=jump)
    except IllegalCommand:
        return False
    return True


def _ref_arrangements(new: tuple[Card, ...], row_has_piles: bool):
    if not new:
        yield (), ()
        return
    if not row_has_piles:
        for order in permutations(new):
            yield order, (cmd.RIGHT,) * len(order)
        return
    for k in range(len(new) + 1):
        for left in combinations(new, k):
            right = tuple(c for c in new if c not in left)
            for lp in permutations(left):
                for rp in permutations(right):
                    yield tuple(reversed(lp)) + rp, (cmd.LEFT,) * k + (cmd.RIGHT,) * len(rp)


def _ref_plays(state: GameState, seat: int) -> list:
    s = state.seats[seat]
    key = _ref_hand_key(s)
    boost = state.turn.boost
    jump = state.rules.stones_step if boost == "stones" and not state.turn.stones_used else 0
    out: list = []
    by_type: dict[str, list[Card]] = {}
    for c in s.hand:
        by_type.setdefault(CARD_TYPE[c], []).append(c)
    limit = state.rules.bridge_same_type_max if boost == "bridge" else SAME_TYPE_MAX
    for t, cards in by_type.items():
        side_options = [()] if s.pile_of(t) is not None else [(side,) for side in (cmd.LEFT, cmd.RIGHT)]
        for subset in _ref_kind_subsets(cards, 1, limit, key):
            ordered = tuple(sorted(subset, key=lambda c: (CARD_VALUE[c], c)))
            for sides in side_options:
                if _ref_fits(s, ordered, sides, jump):
                    out.append(cmd.Play(seat, ordered, sides))
    options = []
    for t in state.types:
        if t in by_type:
            singles = [c for c in _ref_distinct(by_type[t], key) if _ref_placeable(s, c, jump)]
            if singles:
                options.append([None, *singles])
    for choice in product(*options):
        cards = tuple(c for c in choice if c is not None)
        if len(cards) < 2:
            continue
        old = tuple(c for c in cards if s.pile_of(CARD_TYPE[c]) is not None)
        new = tuple(c for c in cards if s.pile_of(CARD_TYPE[c]) is None)
        for order, sides in _ref_arrangements(new, bool(s.row)):
            if _ref_fits(s, old + order, sides, jump):
                out.append(cmd.Play(seat, old + order, sides))
    return out


def _ref_landscapes(state: GameState, seat: int) -> list:
    s = state.seats[seat]
    if state.turn.landscape is not None or s.acorns < LANDSCAPE_COST:
        return []
    key = _ref_hand_key(s)
    out: list = []
    for lid in s.panorama:
        if lid in s.used or s.acorns < state.rules.landscape_cost(lid):  # RULES §4.5, per rules version
            continue
        if LANDSCAPES[lid][0] == MIDDAY:
            if not state.turn.main_done:
                out.append(cmd.UseLandscape(seat, lid))
            continue
        if lid in ("spring", "pier", "pine", "festival"):
            out.append(cmd.UseLandscape(seat, lid))
        elif lid == "bamboo":
            if state.deck_size:
                out.append(cmd.UseLandscape(seat, lid))
        elif lid == "lantern":
            out += [cmd.UseLandscape(seat, lid, card=c) for c in _ref_distinct(state.display)]
        elif lid == "terrace":
            out += [cmd.UseLandscape(seat, lid, card=c) for c in _ref_distinct(state.discard)]
        elif lid == "bell":
            out += [cmd.UseLandscape(seat, lid, hand_cards=(h,), card=c)
                    for h in _ref_distinct(s.hand, key) for c in _ref_distinct(state.display)]
        elif lid == "koi":
            if state.deck_size:
                out += [cmd.UseLandscape(seat, lid, hand_cards=sub)
                        for sub in _ref_kind_subsets(s.hand, 1, state.rules.koi_max, key)]
        elif lid == "crane":
            out += [cmd.UseLandscape(seat, lid, hand_cards=(c,)) for c in _ref_distinct(s.hand, key)
                    if s.pile_of(CARD_TYPE[c]) is not None and _ref_placeable(s, c, 0)]
        elif lid == "fox":
            out += [cmd.UseLandscape(seat, lid, hand_cards=sub)
                    for sub in _ref_kind_subsets(s.hand, 1, len(s.hand), key)]
        elif lid == "moongate" and s.acorns >= state.rules.landscape_cost(lid) + _ref_objective_cost(state):
            out += [cmd.UseLandscape(seat, lid, objective=o)
                    for o in state.objectives if o not in state.owners]
    return out


def reference_legal_commands(state: GameState, seat: int) -> list:
    """``legal_commands`` as first written (see the note above)."""
    if state.current != seat:
        return []
    if state.phase == DRAFT:
        return [cmd.DraftPick(seat, lid) for lid in state.draft_remaining]
    if state.phase != PLAY:
        return []
    columns = state.columns()
    want = min(state.rules.teahouse_columns, len(columns)) if state.turn.boost == "teahouse" else 1
    collects = [cmd.Collect(seat, combo) for combo in combinations(columns, want)] if columns else []
    if state.turn.revealed:
        return collects
    s = state.seats[seat]
    key = _ref_hand_key(s)
    out: list = []
    if state.turn.limit_discarded:  # RULES §5.1: after the hand-limit discard, only the end
        excess = len(s.hand) - HAND_LIMIT
        if excess > 0:
            return [cmd.DiscardToLimit(seat, sub) for sub in _ref_kind_subsets(s.hand, excess, excess, key)]
        return [cmd.EndTurn(seat)]
    if not state.turn.main_done:
        cost = 0 if state.turn.boost == "waterfall" else REVEAL_COST
        if state.deck_size and s.acorns >= cost:
            out.append(cmd.Reveal(seat))
        out += collects
        out += _ref_plays(state, seat)
        if s.acorns >= _ref_objective_cost(state):
            out += [cmd.ActivateObjective(seat, o) for o in state.objectives if o not in state.owners]
        if not out:
            out.append(cmd.Pass(seat))
    if not state.turn.exchanged and len(s.hand) >= EXCHANGE_DISCARD:
        out += [cmd.Exchange(seat, pair) for pair in _ref_kind_subsets(s.hand, 2, 2, key)]
    out += _ref_landscapes(state, seat)
    if state.turn.main_done:
        excess = len(s.hand) - HAND_LIMIT
        if excess > 0:
            out += [cmd.DiscardToLimit(seat, sub) for sub in _ref_kind_subsets(s.hand, excess, excess, key)]
        else:
            out.append(cmd.EndTurn(seat))
    return out


# ------------------------------------------------------------ random states


def by_class(state: GameState, rng: random.Random):
    """A random listed command, its class first (engine_games.choose)."""
    return choose(legal_commands(state, state.current), rng)


def states_of(seed: int, seats: int, mode: str, pick=by_class) -> Iterator[GameState]:
    """Every state of a random game (before each command), commands by ``pick``."""
    rng = random.Random(seed)
    state = fold(create_game(list(NAMES[:seats]), seed=seed, landscape_mode=mode))
    for _ in range(3000):
        if state.phase == "ended":
            return
        yield state
        state, _ = run(state, pick(state, rng))
    raise AssertionError("no end after 3000 commands")


def category(command) -> tuple:
    """The kind of a command: its class; a play's mode; a landscape's id."""
    if isinstance(command, Play):
        return ("Play", "same" if len({CARD_TYPE[c] for c in command.cards}) == 1 else "mixed")
    if isinstance(command, UseLandscape):
        return ("UseLandscape", command.landscape)
    return (type(command).__name__,)


def random_table(rng: random.Random) -> GameState:
    """A random mid-turn table (test-only construction, see ``table``): rows
    of valid piles, hands, display, discard, a full or an empty deck, acorns,
    one landscape per part, some used, owned objectives, and the turn's
    flags, often with a midday boost in force. It reaches corners random
    games seldom do (two jumps offered, powers with an empty deck...)."""
    seats = rng.choice([2, 3, 4])
    types = LEAF_TYPES[:seats + 2]
    pool = {t: [c for c in cards_of_types((t,))] for t in types}
    for cards in pool.values():
        rng.shuffle(cards)

    def take(pred) -> Card | None:
        t = rng.choice(types)
        for c in pool[t]:
            if pred(c):
                pool[t].remove(c)
                return c
        return None

    rows: dict[int, list[str]] = {}
    for seat in range(seats):
        piles = []
        for t in rng.sample(types, rng.randint(0, len(types))):
            chain = [c for c in pool[t] if CARD_VALUE[c] == 0][:1]
            while chain and CARD_VALUE[chain[-1]] < 3 and rng.random() < 0.6:
                nxt = [c for c in pool[t] if c not in chain and 0 <= CARD_VALUE[c] - CARD_VALUE[chain[-1]] <= 1]
                if not nxt:
                    break
                chain.append(rng.choice(nxt))
            for c in chain:
                pool[t].remove(c)
            if chain:
                piles.append(" ".join(CARD_NAME[c] for c in chain))
        rows[seat] = piles

    def some(lo: int, hi: int) -> str:
        got = [take(lambda c: True) for _ in range(rng.randint(lo, hi))]
        return " ".join(CARD_NAME[c] for c in got if c is not None)

    current = rng.randrange(seats)
    # Stepping Stones and Red Bridge shape plays: give them extra weight.
    choices = {part: [k for k, v in LANDSCAPES.items() if v[0] == part] for part in PARTS}
    choices[MIDDAY] += ["stones", "stones", "bridge", "bridge"]
    panoramas = {i: [rng.choice(choices[part]) for part in PARTS] for i in range(seats)}
    used = {i: [x for x in panoramas[i] if rng.random() < 0.25] for i in range(seats)}
    state = table(
        seats, types=types, first_seat=rng.randrange(seats), current=current,
        hands={i: some(0, 11 if i == current else 6) for i in range(seats)}, rows=rows,
        display=some(0, 6), discard=some(0, 5), deck_rest=rng.random() < 0.7,
        acorns={i: rng.choice([0, 1, 2, 3, 4, 6]) for i in range(seats)},
        panoramas=panoramas, used=used,
    )
    state.owners = {o: rng.randrange(seats) for o in state.objectives if rng.random() < 0.3}
    turn = state.turn
    me = state.seats[current]
    midday = [x for x in me.panorama if LANDSCAPES[x][0] == MIDDAY and x not in me.used]
    if midday and rng.random() < 0.5:
        turn.landscape = midday[0]
        me.used.append(midday[0])
        turn.stones_used = turn.landscape == "stones" and rng.random() < 0.2
    elif rng.random() < 0.3:
        turn.main_done = True
    turn.exchanged = rng.random() < 0.2
    turn.revealed = not turn.main_done and bool(state.display) and rng.random() < 0.1
    turn.limit_discarded = turn.main_done and len(me.hand) <= HAND_LIMIT and rng.random() < 0.2
    turn.since_checkpoint = 0
    me.known = [c for c in me.hand if rng.random() < 0.3]
    return state


def corner_tables() -> dict[str, GameState]:
    """Hand-made states for the corners of the rules the samplers must respect."""
    def boosted(lid: str, **kw) -> GameState:
        state = table(2, panoramas={0: ["spring", lid, "pier"]}, used={0: [lid]}, **kw)
        state.turn.landscape = lid
        return state

    out = {
        # Stepping Stones: M2a and G2a each need the one jump: no mixed play of both.
        "two jump-only types": boosted("stones", hands={0: "M2a G2a"}, rows={0: ["M0a", "G0a"]}),
        "two jump-only types and a plain one": boosted(
            "stones", hands={0: "M2a G2a C0a"}, rows={0: ["M0a", "G0a"]}),
        "a jump-only type and a plain one": boosted(
            "stones", hands={0: "M2a G1a C0a"}, rows={0: ["M0a", "G0a"]}),
        "jump already used": boosted("stones", hands={0: "M2a G1a"}, rows={0: ["M0a", "G0a"]}),
        "bridge: three of a type": boosted("bridge", hands={0: "M0a M0b M1a M2a G0a"}),
        "three new piles beside a row": table(2, hands={0: "M0a G0a C0a O1a"}, rows={0: ["O0b"]}),
        "three new piles, empty row": table(2, hands={0: "M0a G0a C0a"}),
        "tea house, three columns": boosted("teahouse", display="M1a G1a C1a C2a"),
        "waterfall, no acorns": boosted("waterfall", acorns=0, display="M1a"),
        "pagoda, two acorns": boosted("pagoda", acorns={0: 2}, hands={0: "M3a"}),
        "revealed": table(2, hands={0: "M0a"}, display="M1a G1a C1a"),
        "over the hand limit": table(2, hands={0: "M0a M0b M1a G0a G1a C0a C1a O0a O1a O2a"}),
        "after the hand-limit discard": table(2, hands={0: "M0a M0b M1a G0a G1a C0a C1a O0a"}, display="G2a"),
        "nothing to do but pass": table(2, hands={0: "M2a"}, deck="", deck_rest=False, acorns=0),
        "empty deck: no bamboo, no koi": table(
            2, hands={0: "M0a"}, deck="", deck_rest=False, panoramas={0: ["bamboo", "waterfall", "fox"]}),
        "koi and bell": table(2, hands={0: "M0a M0b G1a"}, display="C1a", panoramas={0: ["koi", "moss", "bell"]}),
        "crane and terrace": table(2, hands={0: "M1a M3a G2a"}, rows={0: ["M0a", "G0a"]}, discard="C1a C1b",
                                   panoramas={0: ["terrace", "stones", "crane"]}),
        "moon gate": table(2, hands={0: "M0a"}, acorns={0: 4}, panoramas={0: ["lantern", "stones", "moongate"]},
                           display="G1a"),
    }
    out["jump already used"].turn.stones_used = True
    out["revealed"].turn.revealed = True
    out["over the hand limit"].turn.main_done = True
    out["after the hand-limit discard"].turn.main_done = True
    out["after the hand-limit discard"].turn.limit_discarded = True
    for state in out.values():
        state.seats[0].known = state.seats[0].hand[::2]
    return out


# ------------------------------------------------------------------- legal


@games
def test_legal_commands_equal_the_reference_enumeration(seed, seats, mode):
    for pick in (by_class, by_sampler):
        for state in states_of(seed, seats, mode, pick):
            for seat in range(seats):
                assert legal_commands(state, seat) == reference_legal_commands(state, seat)


def test_legal_commands_equal_the_reference_on_random_tables():
    rng = random.Random(2026)
    for _ in range(400):
        state = random_table(rng)
        assert legal_commands(state, state.current) == reference_legal_commands(state, state.current)


# RULES §1.5 [house] amounts changed from the published ones (a
# later rules version may tune any of them): the fast paths must follow the
# game's rules, as the reference does.
OTHER_AMOUNTS = {"koi_max": 2, "bridge_same_type_max": 4, "stones_step": 3, "teahouse_columns": 3,
                 "pagoda_objective_cost": 1}


def under_other_amounts(state: GameState) -> GameState:
    state.rules = replace(state.rules, version="test-amounts", **OTHER_AMOUNTS)
    return state


def test_legal_commands_equal_the_reference_under_other_amounts():
    rng = random.Random(2029)
    for _ in range(300):
        state = under_other_amounts(random_table(rng))
        assert legal_commands(state, state.current) == reference_legal_commands(state, state.current)


def uses_boost(state: GameState, play) -> str | None:
    """"bridge" for a three-card play, "stones" for a play that needs the jump."""
    if len(play.cards) > SAME_TYPE_MAX:
        return "bridge"
    if state.turn.boost == "stones":
        ordered = sorted(play.cards, key=lambda c: (CARD_VALUE[c], c)) if category(play)[1] == "same" else play.cards
        if not _ref_fits(state.seats[play.seat], ordered, play.new_pile_sides, 0):
            return "stones"
    return None


def test_legal_commands_equal_the_reference_with_every_landscape_and_boost():
    # Draft games where midday boosts are mostly taken and then used by the
    # longest play, so jumps and three-card plays are enumerated too.
    seen: set = set()
    for seed in range(40):
        rng = random.Random(seed)
        state = fold(create_game(list(NAMES[:2 + seed % 3]), seed=seed, landscape_mode="draft"))
        while state.phase != "ended":
            legal = legal_commands(state, state.current)
            assert legal == reference_legal_commands(state, state.current)
            seen.update(category(c) for c in legal)
            plays = [c for c in legal if isinstance(c, Play)]
            seen.update(uses_boost(state, c) for c in plays)
            boosts = [c for c in legal if isinstance(c, UseLandscape) and c.landscape in ("stones", "bridge")]
            if boosts and rng.random() < 0.8:
                command = rng.choice(boosts)
            elif state.turn.boost in ("stones", "bridge") and plays:
                command = max(plays, key=lambda c: len(c.cards))
            else:
                command = choose(legal, rng)
            state, _ = run(state, command)
    assert {"stones", "bridge", ("Play", "mixed"), ("Play", "same")} <= seen
    assert {c[1] for c in seen if isinstance(c, tuple) and c[0] == "UseLandscape"} == set(LANDSCAPES)


@pytest.mark.parametrize("name", list(corner_tables()))
def test_legal_commands_equal_the_reference_on_corner_tables(name):
    state = corner_tables()[name]
    assert legal_commands(state, 0) == reference_legal_commands(state, 0)


# ----------------------------------------------------------------- sampler


def by_sampler(state: GameState, rng: random.Random):
    return sample_command(state, state.current, rng)


def _kinds(command) -> tuple:
    cards = getattr(command, "cards", None) or getattr(command, "hand_cards", ())
    table = (CARD_KIND[command.card],) if getattr(command, "card", None) is not None else ()
    return tuple(sorted(CARD_KIND[c] for c in cards)) + table


class Listed:
    """The outcomes of one state's listed commands, by class and card kinds."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.legal = legal_commands(state, state.current)
        self.outcome = Outcomes(state)
        self._outcomes: dict[tuple, set[tuple[str, str]]] = {}
        self._shapes: dict[tuple, list] | None = None  # the listed commands by shape, once needed

    def outcomes(self, command) -> set[tuple[str, str]]:
        shape = (type(command), _kinds(command))
        if shape not in self._outcomes:
            if self._shapes is None:
                self._shapes = {}
                for x in self.legal:
                    self._shapes.setdefault((type(x), _kinds(x)), []).append(x)
            self._outcomes[shape] = {self.outcome(x) for x in self._shapes.get(shape, ())}
        return self._outcomes[shape]

    def lists(self, command) -> bool:
        """Whether ``command`` is accepted and equivalent to a listed command."""
        return self.outcome(command) in self.outcomes(command)


def reaches_every_listed_command(state: GameState, rng: random.Random, samples: int = 3000,
                                 most: int = 16) -> int:
    """Sample ``state`` many times: for each kind of command with at most
    ``most`` listed commands, the samples reach every listed outcome. Returns
    how many kinds were checked."""
    outcome = Outcomes(state)
    listed: dict[tuple, set[tuple[str, str]]] = {}
    for x in legal_commands(state, state.current):
        listed.setdefault(category(x), set()).add(outcome(x))
    reached: dict[tuple, set[tuple[str, str]]] = {}
    for c in {sample_command(state, state.current, rng) for _ in range(samples)}:
        reached.setdefault(category(c), set()).add(outcome(c))
    checked = 0
    for kind, wanted in listed.items():
        if len(wanted) <= most:
            assert reached.get(kind) == wanted, kind
            checked += 1
    return checked


@games
@settings(max_examples=20)
def test_sampled_commands_are_accepted_and_equivalent_to_listed_ones(seed, seats, mode):
    rng = random.Random(seed + 7)
    for pick in (by_class, by_sampler):
        for state in states_of(seed, seats, mode, pick):
            listed = Listed(state)
            snapshot = state.clone()
            for command in {sample_command(state, state.current, rng) for _ in range(4)}:
                decide(state, command)  # raises IllegalCommand if refused
                assert listed.lists(command), f"{command!r} matches no listed command"
            assert state == snapshot


@games
@settings(max_examples=20)
def test_sampler_reaches_every_kind_of_command_legal_in_a_state(seed, seats, mode):
    rng = random.Random(seed + 11)
    for state in states_of(seed, seats, mode, by_sampler):
        legal = {category(c) for c in legal_commands(state, state.current)}
        sampled = {category(sample_command(state, state.current, rng)) for _ in range(300)}
        assert sampled == legal


def test_sampler_on_random_tables_returns_listed_commands_and_reaches_every_kind():
    rng = random.Random(2027)
    for _ in range(300):
        state = random_table(rng)
        listed = Listed(state)
        sampled = [sample_command(state, state.current, rng) for _ in range(300)]
        assert {category(c) for c in sampled} == {category(c) for c in listed.legal}
        for command in set(sampled[:40]):
            decide(state, command)  # raises IllegalCommand if refused
            assert listed.lists(command), f"{command!r} matches no listed command"


def test_sampler_under_other_amounts_returns_listed_commands_and_reaches_every_kind():
    rng = random.Random(2030)
    for _ in range(150):
        state = under_other_amounts(random_table(rng))
        listed = Listed(state)
        sampled = [sample_command(state, state.current, rng) for _ in range(300)]
        assert {category(c) for c in sampled} == {category(c) for c in listed.legal}
        for command in set(sampled[:40]):
            decide(state, command)  # raises IllegalCommand if refused
            assert listed.lists(command), f"{command!r} matches no listed command"


def test_sampler_reaches_every_listed_command_in_random_games():
    rng = random.Random(5)
    checked = 0
    for seed in range(8):
        for i, state in enumerate(states_of(seed, 2 + seed % 3, "draft" if seed % 2 else "starter", by_sampler)):
            if i % 10 == 0:
                checked += reaches_every_listed_command(state, rng)
    assert checked > 100


def test_sampler_reaches_every_listed_command_on_random_tables():
    rng = random.Random(2028)
    checked = 0
    for _ in range(80):
        checked += reaches_every_listed_command(random_table(rng), rng)
    assert checked > 200


@pytest.mark.parametrize("name", list(corner_tables()))
def test_sampler_on_corner_tables(name):
    state = corner_tables()[name]
    rng = random.Random(3)
    listed = Listed(state)
    for command in {sample_command(state, 0, rng) for _ in range(300)}:
        decide(state, command)  # raises IllegalCommand if refused
        assert listed.lists(command), f"{command!r} matches no listed command"
    kinds = len({category(c) for c in listed.legal})
    assert reaches_every_listed_command(state, rng, samples=30000, most=1000) == kinds


def test_sampler_refuses_a_seat_that_is_not_to_move_and_an_ended_game():
    rng = random.Random(1)
    state = fold(create_game(["a", "b"], seed=1))
    with pytest.raises(ValueError):
        sample_command(state, 1 - state.current, rng)
    while state.phase != "ended":
        state, _ = run(state, sample_command(state, state.current, rng))
    for seat in (0, 1):
        with pytest.raises(ValueError):
            sample_command(state, seat, rng)


# --------------------------------------------------- run, apply, fold, undo


@games
def test_run_apply_and_fold_reach_the_same_states_undo_included(seed, seats, mode):
    rng = random.Random(seed + 13)
    events = create_game(list(NAMES[:seats]), seed=seed, landscape_mode=mode)
    state = fold(events)
    own = fold(events)  # changed in place only
    for _ in range(3000):
        if state.phase == "ended":
            break
        if state.turn.since_checkpoint and rng.random() < 0.2:
            command = Undo(state.current)
        else:
            command = sample_command(state, state.current, rng)
        before = state.clone()
        new_state, new = run(state, command)
        assert state == before, "run changed its input"
        plain = state.clone()
        for e in decide(state, command):
            apply_in_place(plain, e)
        stepped = state
        for e in new:
            stepped = apply(stepped, e)
        assert run_in_place(own, command) == new
        assert new_state == plain == stepped == own
        events += new
        state = new_state
        check_conservation(state)
    assert state.phase == "ended"
    assert fold(events) == state


@games
def test_run_in_place_changes_the_state_as_run_does_and_refuses_without_changing_it(seed, seats, mode):
    rng = random.Random(seed + 17)
    for state in states_of(seed, seats, mode, by_sampler):
        legal = legal_commands(state, state.current)
        for command in (random_command(state, rng), mutate(rng.choice(legal), state, rng), rng.choice(legal)):
            own = state.clone()
            try:
                expected, events = run(state, command)
            except IllegalCommand as refused:
                with pytest.raises(IllegalCommand) as info:
                    run_in_place(own, command)
                assert str(info.value) == str(refused)
                assert own == state
            else:
                assert run_in_place(own, command) == events
                assert own == expected


@games
@settings(max_examples=15)
def test_clone_and_fork_are_equal_copies_and_clone_is_independent(seed, seats, mode):
    for state in states_of(seed, seats, mode, by_sampler):
        before = repr(state)
        copy, fork = state.clone(), state.fork()
        assert copy == state == fork
        for seat in copy.seats:
            for pile in seat.row:
                pile.cards.append(pile.cards[-1])  # test-only: change the clone's piles in place
                pile.closed = not pile.closed
        assert repr(state) == repr(fork) == before
