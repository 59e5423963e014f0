"""``explain(view, command)``: from the seat's own view (RULES §8), the very
sentence ``decide`` refuses a command with, or None when it is legal.

Every case asserts ``explain(view(state, seat), c) == str(IllegalCommand from
decide(state, c))`` (None when ``decide`` accepts it), that the refusal is the
expected rule (its RULES § where the sentence has one), and that the view is
not changed.
"""

from __future__ import annotations

import copy
import dataclasses
import random
import re

import pytest
from hypothesis import settings

from momiji_tui.engine import (
    ActivateObjective, Collect, DiscardToLimit, DraftPick, EndTurn, Exchange, GameState,
    Explainer, IllegalCommand, Pass, Play, Reveal, Undo, UseLandscape, decide, explain, legal_commands, view,
)
from momiji_tui.engine.rules_data import LANDSCAPES
from momiji_tui.engine.state import ENDED

from engine_games import games, walk
from engine_helpers import cs, new_game, play, table
from test_properties_commands import mutate, random_command

MIDDAY = [k for k, v in LANDSCAPES.items() if v[0] == "midday"]


def verdict(state: GameState, command) -> str | None:
    """What ``decide`` says: None when it accepts, else its sentence."""
    try:
        decide(state, command)
    except IllegalCommand as refused:
        return str(refused)
    return None


def agrees(state: GameState, command, match: str | None) -> None:
    """``explain`` from the seat's view says what ``decide`` says on the real
    state, which refuses with a sentence matching ``match`` (None: accepts);
    the view is left as it was."""
    v = view(state, command.seat)
    before = copy.deepcopy(v)
    expected = verdict(state, command)
    if match is None:
        assert expected is None, expected
    else:
        assert expected is not None and re.search(match, expected), expected
    assert explain(v, command) == expected
    assert v == before, "explain changed the view"


def base(**kw) -> GameState:
    """Two seats, types M G C O, seat 0 to move with a Maple pile."""
    kw.setdefault("hands", {0: "M1a M1b G0a C2a O1a", 1: "M0b G1a"})
    kw.setdefault("rows", {0: ["M0a"]})
    kw.setdefault("display", "O2a C0a")
    kw.setdefault("discard", "G3a")
    kw.setdefault("objectives", ["zeros", "ones"])
    kw.setdefault("panoramas", {0: ["spring", "waterfall", "pier"], 1: ["spring", "waterfall", "pier"]})
    return table(2, **kw)


def no_deck(state: GameState) -> GameState:
    """``state`` with the deck emptied onto the discard pile (test-only construction)."""
    state = state.clone()
    state.discard += list(state.deck[state.deck_pos:])
    state.deck, state.deck_pos = (), 0
    return state


def after(state: GameState, *commands) -> GameState:
    return play(state, *commands)[0]


def ended(state: GameState) -> GameState:
    state = state.clone()
    state.phase = ENDED
    return state


M1a, M1b, G0a, C2a, O1a = cs("M1a M1b G0a C2a O1a")
O2a, C0a, G3a = cs("O2a C0a G3a")

# (name, state factory, command, None or a pattern of decide's refusal)
CASES = [
    # every command: whose turn, the end (RULES §3)
    ("other seat's turn", base, Exchange(1, cs("M0b G1a")), r"It is Ada's turn, not yours \(RULES §3\)"),
    ("game over", lambda: ended(base()), EndTurn(0), r"The game is over"),
    # DraftPick (RULES §2.1)
    ("draft pick legal", lambda: new_game(2, mode="draft"), None, None),
    ("draft pick not offered", lambda: new_game(2, mode="draft"), "not-offered",
     r"not in this round's draft offer \(RULES §2\.1\)"),
    ("draft over", base, DraftPick(0, "spring"), r"The landscape draft is over"),
    ("reveal in draft", lambda: new_game(2, mode="draft"), "reveal-in-draft",
     r"Finish the landscape draft first \(RULES §2\.1\)"),
    # Reveal (RULES §4.1)
    ("reveal legal", base, Reveal(0), None),
    ("reveal twice", lambda: after(base(), Reveal(0)), Reveal(0), r"choose a column to collect first \(RULES §4\.1\)"),
    ("reveal empty deck", lambda: no_deck(base()), Reveal(0), r"deck is empty.*\(RULES §4\.1\)"),
    ("reveal no acorn", lambda: base(acorns=0), Reveal(0), r"Revealing costs 1 acorn; you have none \(RULES §4\.1\)"),
    ("reveal after main", lambda: after(base(), Collect(0, ("O",))), Reveal(0),
     r"already taken your main action this turn \(RULES §3\)"),
    ("waterfall reveal free", lambda: after(base(acorns=1), UseLandscape(0, "waterfall")), Reveal(0), None),
    # Collect (RULES §4.1, Tea House §1.5)
    ("collect legal", base, Collect(0, ("O",)), None),
    ("collect empty display", lambda: base(display=""), Collect(0, ("O",)), r"display is empty.*\(RULES §4\.1\)"),
    ("collect two columns", base, Collect(0, ("O", "C")), r"Collect exactly one column \(RULES §4\.1\)"),
    ("collect missing column", base, Collect(0, ("M",)), r"There is no Maple column in the display \(RULES §4\.1\)"),
    ("teahouse one column", lambda: after(base(panoramas={0: ["teahouse"]}), UseLandscape(0, "teahouse")),
     Collect(0, ("O",)), r"With the Tea House, collect 2 different columns \(RULES §1\.5\)"),
    ("teahouse legal", lambda: after(base(panoramas={0: ["teahouse"]}), UseLandscape(0, "teahouse")),
     Collect(0, ("C", "O")), None),
    # Play (RULES §4.2, Red Bridge and Stepping Stones §1.5)
    ("play legal", base, Play(0, (M1a,)), None),
    ("play new pile legal", base, Play(0, (G0a,), ("left",)), None),
    ("play mixed legal", base, Play(0, (M1a, G0a), ("right",)), None),
    ("play nothing", base, Play(0, ()), r"Choose at least one card to play"),
    ("play twice named", base, Play(0, (M1a, M1a)), r"The same card is named twice"),
    ("play not in hand", base, Play(0, cs("M2a")), r"cannot play a card that is not in your hand"),
    ("play bad mix", base, Play(0, (M1a, M1b, G0a), ("left",)), r"one per pile \(RULES §4\.2\)"),
    ("play three same", lambda: base(hands={0: "M1a M1b M2a"}), Play(0, cs("M1a M1b M2a")),
     r"at most 2 cards \(RULES §4\.2\)"),
    ("play four with bridge", lambda: after(base(hands={0: "M1a M1b M2a M2b"}, panoramas={0: ["bridge"]}),
                                            UseLandscape(0, "bridge")),
     Play(0, cs("M1a M1b M2a M2b")), r"at most 3 cards \(RULES §4\.2, Red Bridge §1\.5\)"),
    ("play three with bridge", lambda: after(base(hands={0: "M1a M1b M2a"}, panoramas={0: ["bridge"]}),
                                             UseLandscape(0, "bridge")), Play(0, cs("M1a M1b M2a")), None),
    ("play on closed pile", lambda: base(rows={0: ["M0a M1c M2a M3a"]}), Play(0, (M1a,)),
     r"closed by a torii.*\(RULES §4\.2\)"),
    ("play not zero", base, Play(0, (O1a,), ("left",)), r"A pile begins with a 0.*\(RULES §4\.2\)"),
    ("play no side", base, Play(0, (G0a,)), r"Say which end of your row.*\(RULES §4\.2\)"),
    ("play step", base, Play(0, (C2a,)), r"A pile begins with a 0"),
    ("play too high", lambda: base(hands={0: "M2a"}), Play(0, cs("M2a")), r"exactly 1 higher \(RULES §4\.2\)"),
    ("play stones jump", lambda: after(base(hands={0: "M2a"}, panoramas={0: ["stones"]}), UseLandscape(0, "stones")),
     Play(0, cs("M2a")), None),
    ("play extra sides", base, Play(0, (M1a,), ("left",)), r"More new-pile sides were given"),
    ("play after main", lambda: after(base(), Play(0, (M1a,))), Play(0, (M1b,)),
     r"already taken your main action this turn \(RULES §3\)"),
    # ActivateObjective (RULES §4.3, §1.4, Pagoda §1.5)
    ("objective legal", lambda: base(acorns=3), ActivateObjective(0, "zeros"), None),
    ("objective not revealed", lambda: base(acorns=3), ActivateObjective(0, "torii"),
     r"not one of this game's revealed objectives \(RULES §1\.4\)"),
    ("objective owned", lambda: base(acorns=3, owners={"zeros": 1}), ActivateObjective(0, "zeros"),
     r"already activated by Basho \(RULES §4\.3\)"),
    ("objective cost", base, ActivateObjective(0, "zeros"), r"costs 3 acorns; you have 2 \(RULES §4\.3\)"),
    ("objective pagoda cost", lambda: after(base(panoramas={0: ["pagoda"]}), UseLandscape(0, "pagoda")),
     ActivateObjective(0, "zeros"), r"costs 2 acorns; you have 1 \(RULES §4\.3\)"),
    ("objective pagoda legal", lambda: after(base(acorns=3, panoramas={0: ["pagoda"]}), UseLandscape(0, "pagoda")),
     ActivateObjective(0, "zeros"), None),
    # Pass (RULES §3)
    ("pass refused", base, Pass(0), r"You can still take a main action, so you cannot pass \(RULES §3\)"),
    ("pass legal", lambda: no_deck(base(hands={0: "M3a", 1: "M0b"}, display="", acorns=0)), Pass(0), None),
    ("pass after main", lambda: after(base(), Collect(0, ("O",))), Pass(0), r"already taken your main action"),
    # Exchange (RULES §4.4, §3)
    ("exchange legal", base, Exchange(0, (M1a, O1a)), None),
    ("exchange twice", lambda: after(base(), Exchange(0, (M1a, O1a))), Exchange(0, (M1b, G0a)),
     r"exchange only once per turn \(RULES §3, §4\.4\)"),
    ("exchange one card", base, Exchange(0, (M1a,)), r"discards exactly 2 cards \(RULES §4\.4\)"),
    ("exchange not in hand", base, Exchange(0, (M1a, O2a)), r"cannot discard a card that is not in your hand"),
    ("exchange same card", base, Exchange(0, (M1a, M1a)), r"The same card is named twice"),
    # DiscardToLimit and EndTurn (RULES §5.1, §3)
    ("discard legal", lambda: after(base(hands={0: "M1a M1b M1c M1d G0a G0b G0c C2a C2b"}), Collect(0, ("O",))),
     DiscardToLimit(0, cs("M1a M1b")), None),
    ("discard before main", base, DiscardToLimit(0, (M1a,)), r"applies at the end of your turn \(RULES §5\.1\)"),
    ("discard not needed", lambda: after(base(), Collect(0, ("O",))), DiscardToLimit(0, (M1a,)),
     r"You hold 6 cards: no need to discard \(RULES §5\.1\)"),
    ("discard wrong count", lambda: after(base(hands={0: "M1a M1b M1c M1d G0a G0b G0c C2a C2b"}), Collect(0, ("O",))),
     DiscardToLimit(0, (M1a,)), r"Discard exactly 2 card\(s\) to get down to 8 \(RULES §5\.1\)"),
    ("discard not in hand", lambda: after(base(hands={0: "M1a M1b M1c M1d G0a G0b G0c C2a C2b"}), Collect(0, ("O",))),
     DiscardToLimit(0, cs("M1a G3a")), r"cannot discard a card that is not in your hand"),
    ("after the limit discard", lambda: after(base(hands={0: "M1a M1b M1c M1d G0a G0b G0c C2a C2b"}),
                                              Collect(0, ("O",)), DiscardToLimit(0, cs("M1a M1b"))),
     Exchange(0, cs("M1c M1d")), r"your turn is ending \(RULES §5\.1\)"),
    ("end turn legal", lambda: after(base(), Collect(0, ("O",))), EndTurn(0), None),
    ("end turn before main", base, EndTurn(0), r"Take your main action first.*\(RULES §3\)"),
    ("end turn over limit", lambda: after(base(hands={0: "M1a M1b M1c M1d G0a G0b G0c C2a C2b"}), Collect(0, ("O",))),
     EndTurn(0), r"You hold 10 cards: discard down to 8 first \(RULES §5\.1\)"),
    # Undo (not a rule: Board Game Arena's policy)
    ("undo at turn start", base, Undo(0), r"Nothing to undo: your turn has just begun"),
    ("undo legal", lambda: after(base(), Exchange(0, (M1a, O1a))), Undo(0), None),
    ("undo after a reveal", lambda: after(base(), Reveal(0)), Undo(0), r"a hidden card was revealed"),
    ("undo in draft", lambda: new_game(2, mode="draft"), "undo-in-draft", r"nothing to undo during the draft"),
]


def _draft_command(state: GameState, tag):
    """Commands that depend on the draft state: the seat to pick and its offer."""
    seat = state.current
    if tag is None:
        return DraftPick(seat, state.draft_remaining[0])
    if tag == "not-offered":
        return DraftPick(seat, next(k for k in LANDSCAPES if k not in state.draft_remaining))
    if tag == "reveal-in-draft":
        return Reveal(seat)
    return Undo(seat)


@pytest.mark.parametrize("name, make, command, match", CASES, ids=[c[0] for c in CASES])
def test_explain_says_what_decide_says(name, make, command, match):
    state = make()
    if command is None or isinstance(command, str):
        command = _draft_command(state, command)
    agrees(state, command, match)


# ------------------------------------------------------------- landscapes


def land(lid: str, *, acorns: int = 5, **kw) -> GameState:
    """Seat 0 owns ``lid``; hand M1a G2a C1a, a Maple pile, O2a shown, K1a discarded."""
    kw.setdefault("hands", {0: "M1a G2a C1a"})
    kw.setdefault("rows", {0: ["M0a"]})
    return table(2, types="MGCOK", panoramas={0: [lid, "spring", "pier"]}, display=kw.pop("display", "O2a"),
                 discard=kw.pop("discard", "K1a"), objectives=["zeros", "ones"], acorns=acorns, **kw)


ARGS = {
    "spring": {}, "bamboo": {}, "lantern": {"card": cs("O2a")[0]},
    "koi": {"hand_cards": cs("G2a")}, "terrace": {"card": cs("K1a")[0]},
    "bell": {"hand_cards": cs("G2a"), "card": cs("O2a")[0]},
    "bridge": {}, "stones": {}, "pagoda": {}, "teahouse": {}, "waterfall": {}, "moss": {},
    "pier": {}, "crane": {"hand_cards": cs("M1a")}, "pine": {}, "fox": {"hand_cards": cs("G2a C1a")},
    "moongate": {"objective": "zeros"}, "festival": {},
}


@pytest.mark.parametrize("lid", list(LANDSCAPES))
def test_rules_4_5_explain_accepts_every_landscape(lid):
    agrees(land(lid), UseLandscape(0, lid, **ARGS[lid]), None)


@pytest.mark.parametrize("lid", list(LANDSCAPES))
def test_rules_1_5_explain_refuses_a_used_landscape(lid):
    agrees(land(lid, used={0: [lid]}), UseLandscape(0, lid, **ARGS[lid]),
           r"has been used already: each power works once per game \(RULES §1\.5\)")


@pytest.mark.parametrize("lid", list(LANDSCAPES))
def test_rules_4_5_explain_refuses_a_landscape_without_an_acorn(lid):
    state = land(lid, acorns=0)  # the cost comes from the game's rules data (RULES §1.5)
    agrees(state, UseLandscape(0, lid, **ARGS[lid]),
           rf"costs {state.rules.landscape_cost(lid)} acorns?; you have none \(RULES §4\.5\)")


@pytest.mark.parametrize("lid", MIDDAY)
def test_rules_4_5_explain_refuses_a_midday_power_after_the_main_action(lid):
    agrees(after(land(lid), Collect(0, ("O",))), UseLandscape(0, lid),
           r"midday power: use it before your main action \(RULES §4\.5\)")


def test_rules_4_5_explain_refuses_a_landscape_not_in_the_panorama():
    agrees(land("spring"), UseLandscape(0, "bamboo"), r"Bamboo Grove is not in your panorama \(RULES §4\.5\)")


def test_rules_4_5_explain_refuses_a_second_landscape_in_a_turn():
    agrees(after(land("bamboo"), UseLandscape(0, "spring")), UseLandscape(0, "bamboo"),
           r"only one landscape per turn \(RULES §3, §4\.5\)")


C1a, G2a, M2a, K1a = cs("C1a G2a M2a K1a")

LANDSCAPE_ARGS = [
    ("koi empty hand", dict(hands={0: ""}), UseLandscape(0, "koi"), r"Koi Pond: your hand is empty \(RULES §1\.5\)"),
    ("koi too many", dict(hands={0: "M1a G2a C1a O1a"}), UseLandscape(0, "koi", hand_cards=cs("M1a G2a C1a O1a")),
     r"Koi Pond: choose 1 to 3 card\(s\) from your hand \(RULES §1\.5\)"),
    ("koi none", {}, UseLandscape(0, "koi"), r"Koi Pond: choose 1 to 3 card\(s\)"),
    ("koi not in hand", {}, UseLandscape(0, "koi", hand_cards=(M2a,)), r"cannot use a card that is not in your hand"),
    ("koi empty deck", "no deck", UseLandscape(0, "koi", hand_cards=(G2a,)),
     r"Koi Pond: the deck is empty \(RULES §1\.5\)"),
    ("bell two cards", {}, UseLandscape(0, "bell", hand_cards=(G2a, C1a), card=O2a),
     r"Temple Bell: choose 1 card\(s\) from your hand \(RULES §1\.5\)"),
    ("bell not in display", {}, UseLandscape(0, "bell", hand_cards=(G2a,), card=K1a),
     r"Temple Bell: choose a card in the display \(RULES §1\.5\)"),
    ("bell no card", {}, UseLandscape(0, "bell", hand_cards=(G2a,)), r"Temple Bell: choose a card in the display"),
    ("crane two cards", {}, UseLandscape(0, "crane", hand_cards=(M1a, G2a)), r"Crane Island: choose 1 card\(s\)"),
    ("crane no pile", {}, UseLandscape(0, "crane", hand_cards=(G2a,)),
     r"no Ginkgo pile: this power plays onto an existing pile \(RULES §1\.5\)"),
    ("crane too high", dict(hands={0: "M2a G2a"}), UseLandscape(0, "crane", hand_cards=(M2a,)),
     r"exactly 1 higher \(RULES §4\.2\)"),
    ("crane closed", dict(rows={0: ["M0a M1b M2b M3a"]}), UseLandscape(0, "crane", hand_cards=(M1a,)),
     r"closed by a torii"),
    ("fox empty hand", dict(hands={0: ""}), UseLandscape(0, "fox"), r"Fox Shrine: your hand is empty"),
    ("fox none", {}, UseLandscape(0, "fox"), r"Fox Shrine: choose 1 to 3 card\(s\)"),
    ("fox same card", {}, UseLandscape(0, "fox", hand_cards=(G2a, G2a)), r"The same card is named twice"),
    ("spring hand cards", {}, UseLandscape(0, "spring", hand_cards=(G2a,)),
     r"Mountain Spring takes no cards from your hand"),
    ("spring card", {}, UseLandscape(0, "spring", card=O2a), r"Mountain Spring takes no card from the table"),
    ("spring objective", {}, UseLandscape(0, "spring", objective="zeros"), r"Mountain Spring takes no objective"),
    ("lantern not in display", {}, UseLandscape(0, "lantern", card=K1a),
     r"Stone Lantern: choose a card in the display \(RULES §1\.5\)"),
    ("lantern no card", {}, UseLandscape(0, "lantern"), r"Stone Lantern: choose a card in the display"),
    ("terrace not in discard", {}, UseLandscape(0, "terrace", card=O2a),
     r"Rice Terrace: choose a card in the discard pile \(RULES §1\.5\)"),
    ("bamboo empty deck", "no deck", UseLandscape(0, "bamboo"), r"Bamboo Grove: the deck is empty \(RULES §1\.5\)"),
    ("moongate no objective", {}, UseLandscape(0, "moongate"),
     r"Moon Gate: choose an objective to activate \(RULES §1\.5\)"),
    ("moongate not revealed", {}, UseLandscape(0, "moongate", objective="torii"),
     r"not one of this game's revealed objectives \(RULES §1\.4\)"),
    ("moongate owned", dict(owners={"zeros": 1}), UseLandscape(0, "moongate", objective="zeros"),
     r"already activated by Basho \(RULES §4\.3\)"),
    ("moongate cost", dict(acorns=3), UseLandscape(0, "moongate", objective="zeros"),
     r"costs 4 acorns; you have 3 \(RULES §4\.3\)"),
]


@pytest.mark.parametrize("name, kw, command, match", LANDSCAPE_ARGS, ids=[c[0] for c in LANDSCAPE_ARGS])
def test_rules_1_5_explain_checks_each_landscape_s_arguments(name, kw, command, match):
    state = no_deck(land(command.landscape)) if kw == "no deck" else land(command.landscape, **kw)
    agrees(state, command, match)


# ----------------------------------------------------------- the contract


def test_explain_refuses_to_judge_another_seat_s_command():
    state = base()
    with pytest.raises(ValueError, match="seat 1"):
        explain(view(state, 0), Exchange(1, cs("M0b G1a")))
    with pytest.raises(ValueError, match="spectator"):
        explain(view(state, None), EndTurn(0))


def test_explain_is_the_same_whatever_the_hidden_cards():
    """The hidden cards (other hands, the deck) never change the answer:
    two real states that give seat 0 the same view get the same sentences."""
    state = base()
    other = state.clone()
    deck = list(other.deck)
    random.Random(5).shuffle(deck)
    other.deck = tuple(deck)
    assert view(other, 0) == view(state, 0)
    for command in legal_commands(state, 0) + [Reveal(0), Undo(0), Pass(0), Play(0, (C2a,))]:
        assert explain(view(state, 0), command) == verdict(other, command) == verdict(state, command)


@games
@settings(max_examples=6)
def test_property_explain_agrees_with_decide_on_reachable_states(seed, seats, mode):
    """For states of random legal games and a sample of commands (legal,
    mutated, random, Undo, and from every seat's view), ``explain`` from the
    seat's view is None exactly when ``decide`` accepts, with the same
    sentence otherwise."""
    rng = random.Random(seed + 13)
    for step, (before, _command, _new, _after, _events) in enumerate(walk(seed, seats, mode)):
        if step % 5:
            continue
        legal = legal_commands(before, before.current)
        sample = rng.sample(legal, min(2, len(legal)))
        sample += [mutate(rng.choice(legal), before, rng), random_command(before, rng), Undo(before.current)]
        for command in sample:
            seat = rng.randrange(before.n_seats) if rng.random() < 0.3 else before.current
            command = dataclasses.replace(command, seat=seat)
            assert explain(view(before, seat), command) == verdict(before, command), command


@games
@settings(max_examples=4)
def test_property_one_explainer_per_view_says_what_explain_says(seed, seats, mode):
    """The table judges many commands of one view with one
    ``Explainer`` (one state built); each answer is ``explain``'s, whatever
    was asked before, and the view is not changed."""
    rng = random.Random(seed + 17)
    for step, (before, _command, _new, _after, _events) in enumerate(walk(seed, seats, mode)):
        if step % 7:
            continue
        seat = before.current
        v = view(before, seat)
        kept = copy.deepcopy(v)
        judge = Explainer(v)
        legal = legal_commands(before, seat)
        sample = rng.sample(legal, min(3, len(legal)))
        sample += [mutate(rng.choice(legal), before, rng), random_command(before, rng), Undo(seat), EndTurn(seat)]
        for command in [*sample, *sample]:  # each asked twice: nothing left over from the first answer
            command = dataclasses.replace(command, seat=seat)
            assert judge(command) == explain(v, command) == verdict(before, command), command
        assert v == kept, "the explainer changed the view"
