"""The preview line under your hand: what ⏎ would do now, or a hint.

``preview_text(draft, key, last_move)`` reads the move being built
(``MoveDraft``) and changes nothing; the engine's checks come through the
draft (``check_play``, ``reason``). Pure: no Textual.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text

from ...engine import ActivateObjective, Collect, Exchange, Pass, Play, Reveal
from ...engine.cards import CARD_TYPE
from ...engine.rules_data import HAND_LIMIT, LANDSCAPES
from .move_draft import HAND_KEYS, DiscardFlow, LandscapeFlow, MoveDraft
from .move_flows import LOWER_CASE_COLUMNS
from .render import ACORN_SIGN, TORII, card_text, cards_text, click, display_columns, leaf_name, row_points

Keys = Callable[[str], str]


def button(key: Keys, label: str) -> Text:
    """A clickable ``⏎ label`` button (runs confirm)."""
    t = Text()
    t.append(f" {key('table.confirm')} {label} ", style="bold reverse")
    t.stylize(click("confirm"))
    return t


def preview_text(draft: MoveDraft, key: Keys, last_move: Text) -> Text:
    """What ⏎ would do now, or what to do next (RULES §3–§5)."""
    v = draft.view
    if v is None or v.phase != "play" or v.me is None:
        return Text("")
    if not draft.my_turn:
        t = Text()
        if last_move.plain:
            t.append("Last move: ", style="bold")
            t.append_text(last_move)
            t.append("\n")
        who = v.seats[v.current].name
        hint = f"{who} is playing; you can look around (? help, m memory mode, q menu)."
        if draft.selected:
            hint = f"{len(draft.selected)} selected — wait for your turn."
        t.append(hint, style="dim")
        return t
    if draft.flow is not None:
        return flow_text(draft, key)
    if draft.columns:
        return collect_text(draft, key)
    if not draft.selected:
        return hint_text(draft, key)
    if v.turn.main_done:
        return done_text(draft, key)
    return play_text(draft, key)


def done_text(draft: MoveDraft, key: Keys) -> Text:
    """Cards selected once the main action is done: the exchange when one is
    possible (RULES §4.4), else that only ending the turn is left (§5)."""
    n = len(draft.selected)
    x = key("table.exchange")
    if not draft.can(Exchange):
        return Text(f"{n} selected. The main action is done: {key('table.end_turn')} ends the turn.",
                    style="dim")
    return Text(f"{n} selected. " + (f"{x} exchanges them for 1{ACORN_SIGN}." if n == 2 else
                                     f"Main action done: {x} exchanges 2 cards."), style="dim")


def hint_text(draft: MoveDraft, k: Keys) -> Text:
    """Nothing selected: what the turn allows next."""
    v = draft.view
    assert v is not None and v.me is not None
    if v.turn.limit_discarded:
        return Text(f"Discarded down to the hand limit: {k('table.end_turn')} ends the turn "
                    f"(RULES §5.1); {k('table.undo')} undoes, the discard included.", style="bold")
    if v.turn.main_done:
        free = []
        if draft.can(Exchange):
            free.append(f"{k('table.exchange')} exchanges 2 cards")
        if draft.allows("landscape"):
            free.append(f"{k('table.landscape')} uses a landscape")
        t = Text("Main action done. ", style="bold")
        t.append((("Free actions: " + ", ".join(free) + "; ") if free else "")
                 + f"{k('table.end_turn')} ends the turn.", style="dim")
        if v.me.hand_size > HAND_LIMIT:
            t.append(f" You hold {v.me.hand_size}: {k('table.end_turn')} asks which "
                     f"{v.me.hand_size - HAND_LIMIT} to discard.", style="bold")
        return t
    if v.turn.revealed:
        letters = " ".join(draft.present)
        return Text(f"Collect a column: press its letter ({letters}) or click it, then "
                    f"{k('table.confirm')}.", style="bold")
    if draft.can(Pass):
        return Text(f"No main action is possible: {k('table.end_turn')} passes and ends "
                    "your turn (RULES §3); free actions first if you like.", style="bold")
    boost = v.turn.boost
    if boost is not None:
        _, name, power = LANDSCAPES[boost]
        t = Text(f"{name} this turn: {power}. ", style="bold")
        t.append(main_actions_text(draft), style="dim")
        return t
    n = min(len(draft.hand), len(HAND_KEYS))
    reveal = f"; {k('table.reveal')} reveals 4 more (1{ACORN_SIGN})" if draft.can(Reveal) else ""
    column = f"a column ({column_keys(draft.present)}) to collect" if draft.can(Collect) else ""
    if n == 0:
        return Text(f"Your hand is empty: {column or 'nothing to collect'}{reveal}.", style="dim")
    keys = f"1–{HAND_KEYS[n - 1]}" if n > 1 else "1"
    return Text(f"Select cards ({keys} or click) to play{', or ' + column if column else ''}{reveal}.",
                style="dim")


def main_actions_text(draft: MoveDraft) -> str:
    """"Now collect, play or take an objective.", naming only the main
    actions the legal commands hold (RULES §3); "" when none is."""
    kinds = ((Collect, "collect"), (Play, "play"), (ActivateObjective, "take an objective"))
    names = [name for kind, name in kinds if draft.can(kind)]
    if not names:
        return ""
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
    return f"Now {listed}."


def column_keys(present: list[str]) -> str:
    """How to name a display column: its letter, lower case too when every
    present column's lower-case letter is free (``LOWER_CASE_COLUMNS``), else
    its capital letter (RULES §4.1)."""
    if all(t.lower() in LOWER_CASE_COLUMNS for t in present):
        return "its letter"
    return "its capital letter"


def play_text(draft: MoveDraft, key: Keys) -> Text:
    """The selected play: where each card goes, what closes, acorns, the row after (RULES §4.2, §7)."""
    v = draft.view
    assert v is not None and v.me is not None
    preview, error = draft.check_play()
    if preview is None:
        t = Text("✗ Not a play: ", style="bold")
        t.append(error or "")
        if len(draft.selected) == 2 and draft.can(Exchange):
            t.append(f"  ({key('table.exchange')} exchanges these 2 for 1{ACORN_SIGN})", style="dim")
        return t
    t = button(key, "Play")
    for card, side in preview.placements:
        t.append("  ")
        t.append_text(card_text(card))
        t.append(f"→new, {side} end" if side else f"→{leaf_name(CARD_TYPE[card])}")
    for leaf, torii in preview.closes:
        t.append(f"  closes {leaf_name(leaf)} ", style="bold")
        t.append(TORII if torii else "(no torii left)", style="bold")
    if preview.acorns:
        n = len(preview.pairs)
        t.append(f"  +{preview.acorns}{ACORN_SIGN} ({n} acorn pair{'s' * (n != 1)})", style="bold")
    t.append("\nAfter: ", style="dim")
    gain = preview.acorns // max(len(preview.pairs), 1)
    for i, p in enumerate(preview.row):
        if i:
            if i - 1 in preview.pairs:
                t.append(f" +{gain}{ACORN_SIGN} ", style="bold reverse")
            else:
                t.append("  ")
        t.append_text(card_text(p.cards[-1]))
        changed = p.new or p.grown
        t.append(f"×{len(p.cards)}" + (TORII if p.closed else "") + f"={p.points}",
                 style="bold underline" if changed else "dim")
        if p.new:
            t.append(" new", style="italic")
    t.append(f"  {row_points(v.me)}→{preview.points} pts", style="bold")
    options = draft.arrangements()
    if len(options) > 1:
        t.append(f"  {key('table.ends')}: other ends ({draft.ends % len(options) + 1}/{len(options)})",
                 style="dim")
    return t


def collect_text(draft: MoveDraft, key: Keys) -> Text:
    """The chosen column(s) and the hand after the collect (RULES §4.1, §5.1)."""
    v = draft.view
    assert v is not None and v.me is not None
    want = draft.columns_wanted
    cols = dict(display_columns(v))
    taken = [c for t in draft.columns for c in cols.get(t, [])]
    if len(draft.columns) < want:
        return Text(f"Tea House: choose {want - len(draft.columns)} more column (its letter).", style="bold")
    t = button(key, "Collect")
    t.append(" " + " + ".join(leaf_name(x) for x in draft.columns) + ": ")
    t.append_text(cards_text(taken))
    after = v.me.hand_size + len(taken)
    t.append(f" → hand {after}/{HAND_LIMIT}")
    if after > HAND_LIMIT:
        t.append(f" (discard {after - HAND_LIMIT} before the turn ends)", style="bold")
    return t


def flow_text(draft: MoveDraft, key: Keys) -> Text:
    """The hand-limit discard or the landscape power being built."""
    v = draft.view
    assert v is not None and v.me is not None
    confirm = key("table.confirm")
    n = len(draft.selected)
    flow = draft.flow
    if isinstance(flow, DiscardFlow):
        need = v.me.hand_size - HAND_LIMIT
        t = button(key, "Discard")
        t.append(f" Hand limit {HAND_LIMIT} (RULES §5.1): select {need} card{'s' * (need != 1)} to "
                 f"discard ({n} selected); {confirm} discards"
                 f"{' and ends the turn' if flow.then_end else ''}, Esc goes back.")
        return t
    assert isinstance(flow, LandscapeFlow)
    name = LANDSCAPES[flow.landscape][1]
    t = button(key, name)
    t.append(" ")
    hint = flow.power.hint
    if hint is not None:
        t.append(hint(n))
    if flow.landscape == "crane" and n == 1:
        # The engine judges the placement now, as ⏎ would (RULES §1.5, §4.2).
        refused = draft.explain(draft.landscape_command("crane"))
        if refused is not None:
            t.append(" ✗ ", style="bold")
            t.append(refused, style="bold")
            t.append(" Pick another card, or Esc cancels.")
            return t
        c = draft.selected[0]
        t.append(" → ")
        t.append_text(card_text(c))
        t.append(f" on {leaf_name(CARD_TYPE[c])}")
    t.append(f"; {confirm} uses it (1{ACORN_SIGN}), Esc cancels.")
    return t
