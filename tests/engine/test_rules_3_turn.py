"""RULES §3 — the turn: one main action, free actions at most once, passing."""

from __future__ import annotations

from momiji_tui.engine import (
    ActivateObjective, Collect, EndTurn, Exchange, Pass, Play, Reveal, UseLandscape,
    can_take_main_action, events as ev, legal_commands,
)

from engine_helpers import cs, play, rejected, table


def test_rules_3_exactly_one_main_action_per_turn():
    state = table(2, hands={0: "M0a G0a"}, display="C1a O2a", acorns=5, objectives=["zeros", "ones"])
    after_collect, _ = play(state, Collect(0, ("C",)))
    for command in (
        Collect(0, ("O",)), Play(0, cs("M0a"), ("left",)), ActivateObjective(0, "zeros"), Reveal(0),
        Pass(0),
    ):
        rejected(after_collect, command, "already taken your main action")
    after_play, _ = play(state, Play(0, cs("M0a"), ("left",)))
    rejected(after_play, Collect(0, ("C",)), "already taken your main action")
    after_objective, _ = play(state, ActivateObjective(0, "zeros"))
    rejected(after_objective, Play(0, cs("M0a"), ("left",)), "already taken your main action")


def test_rules_3_the_turn_ends_only_after_the_main_action():
    state = table(2, hands={0: "M0a"}, display="C1a")
    rejected(state, EndTurn(0), "Take your main action first")
    assert EndTurn(0) not in legal_commands(state, 0)
    state, _ = play(state, Collect(0, ("C",)))
    assert EndTurn(0) in legal_commands(state, 0)
    state, events = play(state, EndTurn(0))
    assert events[-1] == ev.TurnEnded(0)
    assert state.current == 1 and state.turn.main_done is False


def test_rules_3_only_the_seat_to_move_may_act():
    state = table(3, hands={1: "M0a"}, display="C1a", current=0)
    rejected(state, Collect(1, ("C",)), r"^It is Ada's turn, not yours \(RULES §3\)\.$")
    rejected(state, Play(1, cs("M0a"), ("left",)), "Ada's turn, not yours")
    rejected(state, Collect(7, ("C",)), "no seat 7")
    assert legal_commands(state, 1) == []


def test_rules_3_free_actions_before_or_after_the_main_action():
    state = table(2, hands={0: "M0a G0a C0a O0a"}, display="C1a", acorns=3)
    # before
    s1, _ = play(state, Exchange(0, cs("M0a G0a")), UseLandscape(0, "spring"), Collect(0, ("C",)))
    assert s1.seats[0].acorns == 3 + 1 - 1 + 2
    # after
    s2, _ = play(state, Collect(0, ("C",)), Exchange(0, cs("M0a G0a")), UseLandscape(0, "spring"))
    assert s2.seats[0].acorns == s1.seats[0].acorns
    # one each: a second exchange or landscape is refused
    rejected(s2, Exchange(0, cs("C0a O0a")), "only once per turn")
    rejected(s2, UseLandscape(0, "pier"), "only one landscape per turn")
    # the next turn they are available again (exchange) ...
    s3, _ = play(s2, EndTurn(0))
    s3.current = 0  # test-only: hand the turn back to seat 0
    s3, _ = play(s3, Exchange(0, cs("C0a O0a")))
    # ... and a used landscape stays used (once per game)
    rejected(s3, UseLandscape(0, "spring"), "used already")


def stuck_table(**kw):
    """Seat 0 has no main action: empty display and deck, a 2 it cannot
    place, 2 acorns (an objective costs 3)."""
    return table(2, hands={0: "M2a G3a"}, display="", deck="", deck_rest=False,
                 objectives=["zeros", "ones"], **kw)


def test_rules_3_pass_when_no_main_action_is_possible():
    state = stuck_table()
    assert not can_take_main_action(state, 0)
    legal = legal_commands(state, 0)
    assert Pass(0) in legal
    assert not [x for x in legal if isinstance(x, (Collect, Play, Reveal, ActivateObjective))]
    state, events = play(state, Pass(0))
    assert events == [ev.MainActionPassed(0)]
    # the turn still has its free actions and its end
    legal = legal_commands(state, 0)
    assert EndTurn(0) in legal and Exchange(0, cs("M2a G3a")) in legal
    state, _ = play(state, Exchange(0, cs("M2a G3a")), EndTurn(0))
    assert state.seats[0].acorns == 3 and state.current == 1


def test_rules_3_pass_with_an_empty_display_and_no_acorn_for_the_reveal():
    state = table(2, hands={0: "M2a"}, display="", acorns=0)
    assert state.deck_size > 0
    assert legal_commands(state, 0)[0] == Pass(0)
    play(state, Pass(0))


def test_rules_3_pass_is_refused_while_a_main_action_exists():
    for state in (
        stuck_table(acorns=3),                                    # can activate an objective
        table(2, hands={0: "M2a"}, display="C1a"),               # can collect
        table(2, hands={0: "M2a"}, display="", acorns=1),        # can pay to reveal
        table(2, hands={0: "M0a"}, display="", deck="", deck_rest=False),  # can play a 0
        table(2, hands={0: "M2a"}, rows={0: ["M0a M1a"]}, display="", deck="", deck_rest=False),
    ):
        assert can_take_main_action(state, 0)
        assert Pass(0) not in legal_commands(state, 0)
        rejected(state, Pass(0), "cannot pass")


def test_rules_3_pass_is_refused_after_the_main_action():
    state = stuck_table()
    state, _ = play(state, Pass(0))
    rejected(state, Pass(0), "already taken your main action")
