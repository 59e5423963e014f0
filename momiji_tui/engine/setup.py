"""Starting a game: every random choice of setup, recorded in events (RULES §2)."""

from __future__ import annotations

import random

from ..safe_text import safe_text
from . import events as ev
from .cards import cards_of_types
from .fold import new_state
from .rules_data import (
    ACORNS_AT_SETUP, DISPLAY_SIZE, HAND_SIZE_AT_SETUP, LANDSCAPES, LEAF_TYPES,
    MAX_SEATS, MIN_SEATS, OBJECTIVE_NAMES, PARTS, RULES_VERSION, draft_offer_size,
    objectives_revealed, rules_for, types_in_play_count,
)
from .state import GameState


def create_game(
    seat_names: list[str] | tuple[str, ...],
    *,
    seed: int | None = None,
    landscape_mode: str = "starter",
    game_id: str = "game",
    rules_version: str = RULES_VERSION,
) -> list[ev.Event]:
    """The opening events of a new game.

    ``seat_names``: 2–4 names, seat 0 first. ``landscape_mode``: ``"starter"``
    (everyone gets the starter panorama, RULES §1.5) or ``"draft"``
    (RULES §2.1). With ``"starter"`` the deal, display, acorns and
    ``PlayStarted`` follow at once; with ``"draft"`` they follow the last pick.
    ``rules_version``: the rules the game is played under (default: the
    current ones; an older one is for measuring, docs/BALANCE.md).
    Every random choice (types, deck order, objectives, draft offers, first
    seat) is drawn from ``random.Random(seed)`` and written into
    ``GameCreated``, so replays never draw again.

    Raises ``ValueError`` for a wrong number of seats, an unknown mode or
    rules version, or a negative seed (``random.Random`` would fold it onto its positive twin).
    """
    n = len(seat_names)
    if not MIN_SEATS <= n <= MAX_SEATS:
        raise ValueError(f"Momiji is played by {MIN_SEATS} to {MAX_SEATS} seats, not {n} (RULES §2).")
    if landscape_mode not in ("starter", "draft"):
        raise ValueError(f"unknown landscape mode {landscape_mode!r}")
    rules_for(rules_version)  # raises ValueError for a version we do not know
    if seed is not None and seed < 0:
        raise ValueError(f"a seed is a whole number 0 or more, not {seed}")
    rng = random.Random(seed)
    # RULES §2.1: players + 2 leaf types, at random (kept in canonical order).
    chosen = set(rng.sample(LEAF_TYPES, types_in_play_count(n)))
    types = tuple(t for t in LEAF_TYPES if t in chosen)
    # RULES §2.2: shuffle the deck of those types.
    deck = cards_of_types(types)
    rng.shuffle(deck)
    # RULES §1.4: eligible objectives, shuffled, players + 2 revealed.
    eligible = [o for o in OBJECTIVE_NAMES if not o.startswith("type-") or o[5:] in types]
    rng.shuffle(eligible)
    objectives = tuple(eligible[: objectives_revealed(n)])
    # RULES §2.1: each draft round reveals players + 1 landscapes of its part.
    offers: tuple[tuple[str, ...], ...] = ()
    if landscape_mode == "draft":
        offers = tuple(
            tuple(rng.sample([k for k, v in LANDSCAPES.items() if v[0] == part], draft_offer_size(n)))
            for part in PARTS
        )
    first_seat = rng.randrange(n)  # RULES §2.7
    created = ev.GameCreated(
        game_id=game_id,
        rules_version=rules_version,
        seed=seed,
        seat_names=tuple(safe_text(n) for n in seat_names),
        types=types,
        objectives=objectives,
        first_seat=first_seat,
        deck=tuple(deck),
        landscape_mode=landscape_mode,
        draft_offers=offers,
    )
    if landscape_mode == "draft":
        return [created]
    return [created, *setup_events(new_state(created))]


def setup_events(state: GameState) -> list[ev.Event]:
    """RULES §2 steps 5–7 once the panoramas are known: deal 6 cards to each
    seat, reveal 4 to the display, give each seat 2 acorns, start play."""
    out: list[ev.Event] = []
    pos = state.deck_pos
    for seat in range(state.n_seats):
        out.append(ev.CardsDealt(seat, state.deck[pos:pos + HAND_SIZE_AT_SETUP]))
        pos += HAND_SIZE_AT_SETUP
    out.append(ev.DisplayRevealed(state.deck[pos:pos + DISPLAY_SIZE], "setup"))
    for seat in range(state.n_seats):
        out.append(ev.AcornsGained(seat, ACORNS_AT_SETUP, "setup"))
    out.append(ev.PlayStarted(state.first_seat))
    return out
