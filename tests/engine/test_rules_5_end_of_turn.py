"""RULES §5 — end of turn: hand limit, display top-up, then the end check."""

from __future__ import annotations

from momiji_tui.engine import (
    ActivateObjective, Collect, DiscardToLimit, EndTurn, Exchange, Play, Reveal, Undo, UseLandscape,
    apply, events as ev, legal_commands,
)

from engine_helpers import check_conservation, cs, names, play, rejected, table

EIGHT = "M0a M0b M1a M1b G0a G0b G1a G1b"


def test_rules_5_1_hand_limit_discard_down_to_eight_of_your_choice():
    state = table(2, hands={0: EIGHT}, display="C1a C2a O0a")
    state, _ = play(state, Collect(0, ("C",)))
    assert len(state.seats[0].hand) == 10
    rejected(state, EndTurn(0), "You hold 10 cards: discard down to 8 first")
    legal = legal_commands(state, 0)
    assert EndTurn(0) not in legal
    assert {len(x.cards) for x in legal if isinstance(x, DiscardToLimit)} == {2}
    rejected(state, DiscardToLimit(0, cs("C1a")), "Discard exactly 2 card")
    rejected(state, DiscardToLimit(0, cs("C1a C2a M0a")), "Discard exactly 2 card")
    rejected(state, DiscardToLimit(0, cs("C1a O0a")), "not in your hand")
    state, events = play(state, DiscardToLimit(0, cs("C2a M0a")))
    assert events == [ev.CardsDiscarded(0, cs("C2a M0a"), "hand limit")]
    assert len(state.seats[0].hand) == 8 and names(state.discard) == ["C2a", "M0a"]
    assert names(state.seats[0].known) == ["C1a"]
    state, _ = play(state, EndTurn(0))
    assert state.current == 1


def test_rules_5_1_eight_cards_is_within_the_limit():
    state = table(2, hands={0: "M0a M0b M1a M1b G0a G0b"}, display="C1a C2a O0a")
    state, _ = play(state, Collect(0, ("C",)))
    rejected(state, DiscardToLimit(0, cs("C1a")), "You hold 8 cards: no need to discard")
    play(state, EndTurn(0))


def test_rules_5_1_the_hand_limit_applies_at_the_end_of_the_turn_only():
    state = table(2, hands={0: EIGHT + " C0a"}, display="O0a")
    rejected(state, DiscardToLimit(0, cs("C0a")), "applies at the end of your turn")
    # A free action before the end may bring the hand down instead.
    state, _ = play(state, Collect(0, ("O",)), Exchange(0, cs("C0a O0a")), EndTurn(0))
    assert state.current == 1


def test_rules_5_1_a_play_can_keep_a_big_hand_under_the_limit():
    state = table(2, hands={0: EIGHT + " C0a"})
    state, _ = play(state, Play(0, cs("M0a C0a"), ("left", "left")), EndTurn(0))
    assert len(state.seats[0].hand) == 7


def test_rules_5_2_display_top_up_to_four_at_the_end_of_the_turn():
    state = table(2, display="C1a O0a O2a", deck="M0a G1a K0a Z0a", types="MGCOZK")
    state, _ = play(state, Collect(0, ("O",)))
    assert names(state.display) == ["C1a"]
    state, events = play(state, EndTurn(0))
    assert events == [ev.DisplayRevealed(cs("M0a G1a K0a"), "top-up"), ev.TurnEnded(0)]
    assert names(state.display) == ["C1a", "M0a", "G1a", "K0a"]
    check_conservation(state)


def test_rules_5_2_no_top_up_when_the_display_holds_four_or_more():
    state = table(2, hands={0: "M0a"}, display="C1a O0a O2a G0a G1a")
    state, events = play(state, Play(0, cs("M0a"), ("left",)), EndTurn(0))
    assert not [e for e in events if isinstance(e, ev.DisplayRevealed)]
    assert len(state.display) == 5


def test_rules_5_2_top_up_from_a_short_deck_reveals_what_is_left():
    state = table(2, display="O0a O2a", deck="M0a", deck_rest=False)
    state, events = play(state, Collect(0, ("O",)), EndTurn(0))
    assert events[1] == ev.DisplayRevealed(cs("M0a"), "top-up")
    assert names(state.display) == ["M0a"] and state.deck_size == 0


# ------------------------------------------- §5.1: the hand-limit discard ends the turn

TWELVE_AFTER_COLLECT = dict(hands={0: EIGHT}, display="C0a C1a C2a C3a O0a",
                            panoramas={0: ["bamboo", "waterfall", "pier"]}, acorns=5)


def test_rules_5_1_exchange_first_then_discard_keeps_eight():
    # RULES §3, §5.1: free actions come before the end of the turn, whose
    # first step is the hand-limit discard: collect to 12, exchange 2, discard 2.
    state = table(2, objectives=["zeros", "ones", "twos", "torii"], **TWELVE_AFTER_COLLECT)
    state, _ = play(state, Collect(0, ("C",)))
    assert len(state.seats[0].hand) == 12
    state, _ = play(state, Exchange(0, cs("C0a C1a")), DiscardToLimit(0, cs("C2a C3a")), EndTurn(0))
    assert state.current == 1 and len(state.seats[0].hand) == 8


def test_rules_5_1_after_the_hand_limit_discard_only_the_end_of_turn_follows():
    # RULES §5: the hand-limit discard is step 1 of the end of the turn; no
    # main or free action (RULES §3) can follow it.
    state = table(2, objectives=["zeros", "ones", "twos", "torii"], **TWELVE_AFTER_COLLECT)
    state, _ = play(state, Collect(0, ("C",)), DiscardToLimit(0, cs("C0a C1a C2a C3a")))
    assert len(state.seats[0].hand) == 8
    ending = "discarded down to the hand limit: your turn is ending"
    rejected(state, Exchange(0, cs("M0a M0b")), ending)
    rejected(state, UseLandscape(0, "pier"), ending)
    rejected(state, UseLandscape(0, "bamboo"), ending)
    rejected(state, ActivateObjective(0, "zeros"), ending)
    rejected(state, Collect(0, ("O",)), ending)
    rejected(state, Play(0, cs("M0a"), ("left",)), ending)
    rejected(state, Reveal(0), ending)
    rejected(state, DiscardToLimit(0, cs("M0a")), ending)
    assert legal_commands(state, 0) == [EndTurn(0)]
    message = rejected(state, Exchange(0, cs("M0a M0b")), ending)
    assert "RULES §5" in str(message)
    state, _ = play(state, EndTurn(0))
    assert state.current == 1 and len(state.seats[0].hand) == 8


def test_rules_5_1_a_card_gaining_power_after_the_discard_is_refused():
    # The defect: discard to 8, then draw 2 with the Bamboo Grove and discard
    # again. RULES §5.1: the power comes before the end of the turn, and one
    # discard brings the hand to 8.
    state = table(2, hands={0: EIGHT}, display="C1a", panoramas={0: ["bamboo"]})
    state, _ = play(state, Collect(0, ("C",)))
    ended = play(state, DiscardToLimit(0, cs("C1a")))[0]
    rejected(ended, UseLandscape(0, "bamboo"), "your turn is ending .*RULES §5")
    assert UseLandscape(0, "bamboo") not in legal_commands(ended, 0)
    state, _ = play(state, UseLandscape(0, "bamboo"))
    assert len(state.seats[0].hand) == 11
    rejected(state, EndTurn(0), "discard down to 8 first")
    state, _ = play(state, DiscardToLimit(0, cs("M0a M0b C1a")), EndTurn(0))
    assert state.current == 1 and len(state.seats[0].hand) == 8


def test_rules_5_1_undo_takes_back_the_hand_limit_discard_and_reopens_the_turn():
    # Undo (tests/engine/test_undo.py) returns to before the discard: the free
    # actions are open again.
    state = table(2, objectives=["zeros", "ones", "twos", "torii"], **TWELVE_AFTER_COLLECT)
    start = state.clone()
    state, _ = play(state, Collect(0, ("C",)), DiscardToLimit(0, cs("C0a C1a C2a C3a")), Undo(0))
    assert state.seats == start.seats and not state.turn.main_done  # back to the turn's start
    assert any(isinstance(x, Exchange) for x in legal_commands(state, 0))
    state, _ = play(state, Collect(0, ("C",)))
    state, _ = play(state, Exchange(0, cs("C0a C1a")), DiscardToLimit(0, cs("C2a C3a")), EndTurn(0))
    assert state.current == 1 and len(state.seats[0].hand) == 8


def test_rules_5_1_a_game_saved_with_actions_after_the_discard_still_folds_and_goes_on():
    # Older versions let a seat discard, then exchange or draw: their logs
    # hold such turns. The fold accepts them (it checks no turn structure);
    # such a turn then goes on to its end, a second discard if still over 8.
    state = table(2, hands={0: EIGHT}, display="C1a C2a", deck="O0a O1a", panoramas={0: ["bamboo"]})
    state, _ = play(state, Collect(0, ("C",)))
    for event in (ev.CardsDiscarded(0, cs("C1a C2a"), "hand limit"),
                  ev.CardsDiscarded(0, cs("M0a M0b"), "exchange"), ev.AcornsGained(0, 1, "exchange"),
                  ev.AcornsPaid(0, 1, "landscape"), ev.LandscapeUsed(0, "bamboo"),
                  ev.CardsDrawn(0, cs("O0a O1a"))):
        state = apply(state, event)
    assert len(state.seats[0].hand) == 8
    assert legal_commands(state, 0) == [EndTurn(0)]
    state, _ = play(state, EndTurn(0))
    assert state.current == 1


def test_rules_5_1_an_old_save_over_the_limit_after_its_discard_discards_again():
    state = table(2, hands={0: EIGHT}, display="C1a", deck="O0a O1a", panoramas={0: ["bamboo"]})
    state, _ = play(state, Collect(0, ("C",)))
    for event in (ev.CardsDiscarded(0, cs("C1a"), "hand limit"), ev.AcornsPaid(0, 1, "landscape"),
                  ev.LandscapeUsed(0, "bamboo"), ev.CardsDrawn(0, cs("O0a O1a"))):
        state = apply(state, event)
    assert len(state.seats[0].hand) == 10
    legal = legal_commands(state, 0)
    assert legal and all(isinstance(x, DiscardToLimit) for x in legal)
    rejected(state, Exchange(0, cs("M0a M0b")), "your turn is ending")
    state, _ = play(state, DiscardToLimit(0, cs("O0a O1a")), EndTurn(0))
    assert state.current == 1 and len(state.seats[0].hand) == 8
