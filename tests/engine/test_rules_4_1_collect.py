"""RULES §4.1 — collect leaf cards, with the paid reveal."""

from __future__ import annotations

from momiji_tui.engine import (
    Collect, EndTurn, Exchange, Play, Reveal, UseLandscape, events as ev, legal_commands,
)

from engine_helpers import check_conservation, cs, names, play, rejected, table


def test_rules_4_1_collect_takes_every_card_of_one_column():
    state = table(2, hands={0: "M0a"}, display="C1a O2a C0b C3a")
    state, events = play(state, Collect(0, ("C",)))
    assert events == [ev.ColumnCollected(0, "C", cs("C1a C0b C3a"))]
    assert names(state.seats[0].hand) == ["M0a", "C1a", "C0b", "C3a"]
    assert names(state.display) == ["O2a"]
    # collected cards are seen by everyone (§8)
    assert names(state.seats[0].known) == ["C1a", "C0b", "C3a"]
    assert state.turn.main_done
    check_conservation(state)


def test_rules_4_1_collect_needs_an_existing_column_and_exactly_one():
    state = table(2, display="C1a O2a")
    rejected(state, Collect(0, ("M",)), "no Maple column")
    rejected(state, Collect(0, ("C", "O")), "exactly one column")
    rejected(state, Collect(0, ()), "exactly one column")
    rejected(state, Collect(0, ("C", "C")), "exactly one column")
    collects = sorted(x.types for x in legal_commands(state, 0) if isinstance(x, Collect))
    assert collects == [("C",), ("O",)]


def test_rules_4_1_paid_reveal_costs_one_acorn_and_shows_the_next_four():
    state = table(2, display="C1a", deck="M0a G1a O2a C2b M3a", acorns=2)
    state, events = play(state, Reveal(0))
    assert events == [ev.AcornsPaid(0, 1, "reveal"), ev.DisplayRevealed(cs("M0a G1a O2a C2b"), "collect")]
    assert state.seats[0].acorns == 1
    assert names(state.display) == ["C1a", "M0a", "G1a", "O2a", "C2b"]
    assert names(state.deck[state.deck_pos:state.deck_pos + 1]) == ["M3a"]
    # the collect then takes the whole column, old and new cards alike
    state, _ = play(state, Collect(0, ("C",)))
    assert names(state.seats[0].hand) == ["C1a", "C2b"]
    check_conservation(state)


def test_rules_4_1_after_the_reveal_the_seat_must_collect():
    state = table(2, hands={0: "M0a G0a"}, display="C1a", deck="O0a", acorns=3)
    state, _ = play(state, Reveal(0))
    assert all(isinstance(x, Collect) for x in legal_commands(state, 0))
    for command in (
        Reveal(0), Play(0, cs("M0a"), ("left",)), EndTurn(0), Exchange(0, cs("M0a G0a")),
        UseLandscape(0, "spring"),
    ):
        rejected(state, command, "choose a column to collect first")


def test_rules_4_1_reveal_only_once_per_collect():
    state = table(2, display="C1a", acorns=5)
    state, _ = play(state, Reveal(0))
    rejected(state, Reveal(0), "collect first")
    state, _ = play(state, Collect(0, ("C",)))
    rejected(state, Reveal(0), "already taken your main action")
    assert not [x for x in legal_commands(state, 0) if isinstance(x, Reveal)]


def test_rules_4_1_reveal_shows_fewer_cards_when_the_deck_is_short():
    state = table(2, display="C1a", deck="M0a G1a", deck_rest=False, acorns=1)
    state, events = play(state, Reveal(0))
    assert events[-1] == ev.DisplayRevealed(cs("M0a G1a"), "collect")
    assert state.seats[0].acorns == 0  # the full price all the same
    assert state.deck_size == 0


def test_rules_4_1_no_reveal_from_an_empty_deck_or_without_an_acorn():
    empty = table(2, display="C1a", deck="", deck_rest=False)
    rejected(empty, Reveal(0), "deck is empty")
    assert Reveal(0) not in legal_commands(empty, 0)
    poor = table(2, display="C1a", acorns=0)
    rejected(poor, Reveal(0), "costs 1 acorn")
    assert Reveal(0) not in legal_commands(poor, 0)


def test_rules_4_1_an_empty_display_needs_a_paid_reveal_first():
    state = table(2, display="", deck="O1a O2a M0a", acorns=1)
    rejected(state, Collect(0, ("O",)), "display is empty: pay to reveal")
    assert [x for x in legal_commands(state, 0) if isinstance(x, (Collect, Reveal))] == [Reveal(0)]
    state, _ = play(state, Reveal(0), Collect(0, ("O",)))
    assert names(state.seats[0].hand) == ["O1a", "O2a"]


def test_rules_4_1_an_empty_display_and_an_empty_deck_allow_no_collect():
    state = table(2, hands={0: "M0a"}, display="", deck="", deck_rest=False, acorns=3)
    rejected(state, Reveal(0), "deck is empty")
    rejected(state, Collect(0, ("M",)), "display is empty")
    assert not [x for x in legal_commands(state, 0) if isinstance(x, (Collect, Reveal))]
