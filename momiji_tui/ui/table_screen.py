"""The main table: display, objectives, every seat's row, your hand, the log.

Keys (ids ``table.*`` so they can be remapped): digits select hand cards,
``c`` collect, ``r`` reveal, ``p`` play, ``s`` new-pile side, ``o``
objective, ``x`` exchange, ``l`` landscape, ``d`` discard, ``e`` end turn.
Every choice goes to the session; an illegal one is explained on screen.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from .. import engine
from ..engine import (
    ActivateObjective, Collect, DiscardToLimit, EndTurn, Exchange, IllegalCommand, Pass, Play,
    Reveal, UseLandscape,
)
from ..engine.cards import CARD_NAME, CARD_TYPE, CARD_VALUE
from ..engine.decide import acorn_pairs
from ..engine.events import AcornsGained, CardsPlayed, PileClosed
from ..engine.rules_data import (
    HAND_LIMIT, LANDSCAPE_COST, LANDSCAPES, MIDDAY, OBJECTIVE_COST, OBJECTIVE_NAMES,
    PAGODA_OBJECTIVE_COST, TEAHOUSE_COLUMNS,
)
from .app import MomijiApp
from .choice import Choice, ChoiceScreen
from .log_panel import LogPanel
from .render import (
    TYPE_STYLE, card_text, display_text, leaf_name, objective_label, panorama_text, row_text,
)

HAND_KEYS = "1234567890"


def hand_order(hand: tuple[int, ...]) -> list[int]:
    """The hand as shown: by leaf type, then value."""
    return sorted(hand, key=lambda c: (CARD_TYPE[c], CARD_VALUE[c], c))


class TableScreen(Screen[None]):
    """Where the game is played."""

    BINDINGS = [
        Binding("c", "collect", "Collect", id="table.collect"),
        Binding("r", "reveal", "Reveal", id="table.reveal"),
        Binding("p", "play", "Play", id="table.play"),
        Binding("s", "side", "Side", id="table.side"),
        Binding("o", "objective", "Objective", id="table.objective"),
        Binding("x", "exchange", "Exchange", id="table.exchange"),
        Binding("l", "landscape", "Landscape", id="table.landscape"),
        Binding("d", "discard", "Discard", id="table.discard"),
        Binding("e", "end_turn", "End turn", id="table.end_turn"),
        Binding("escape", "clear", "Clear", id="table.clear"),
        Binding("m", "app.toggle_memory", "Memory", show=False, id="table.memory"),
        Binding("q", "menu", "Menu", id="table.menu"),
        Binding("left,h", "cursor(-1)", "Cursor left", show=False, id="table.cursor_left"),
        Binding("right", "cursor(1)", "Cursor right", show=False, id="table.cursor_right"),
        Binding("space", "toggle_cursor", "Select", show=False, id="table.select"),
        *[Binding(k, f"toggle({i})", f"Card {k}", show=False, id=f"table.card{k}")
          for i, k in enumerate(HAND_KEYS)],
    ]

    def __init__(self) -> None:
        super().__init__()
        self.selected: list[int] = []
        self.cursor = 0
        self.side = "right"
        self.message = Text("")

    def compose(self) -> ComposeResult:
        with Vertical(id="table"):
            yield Static(id="status")
            yield Static(id="display")
            yield Static(id="objectives")
            yield Static(id="opponents")
            yield Static(id="you")
            yield Static(id="hand")
            yield Static(id="preview")
            yield LogPanel(id="log")
        yield Footer()

    # ------------------------------------------------------------ helpers

    @property
    def momiji(self) -> MomijiApp:
        app = self.app
        assert isinstance(app, MomijiApp)
        return app

    def view(self) -> engine.PlayerView | None:
        app = self.momiji
        return None if app.table is None else app.table.view(app.seat)

    def my_turn(self, v: engine.PlayerView | None = None) -> bool:
        v = v or self.view()
        return v is not None and v.phase == "play" and v.current == self.momiji.seat

    def hand(self, v: engine.PlayerView) -> list[int]:
        me = v.me
        return hand_order(me.hand or ()) if me else []

    def say(self, text: str | Text, style: str = "") -> None:
        """Show a message (an error in bold red)."""
        self.message = text if isinstance(text, Text) else Text(text, style=style)
        self._render_preview()

    def send(self, command: engine.Command) -> bool:
        """Submit; on refusal explain why. Returns True when accepted."""
        error = self.momiji.submit(command)
        if error:
            self.say(error, "bold red")
            return False
        return True

    # ------------------------------------------------------------ drawing

    def on_mount(self) -> None:
        self.ready = True
        self.query_one(LogPanel).reset(self.momiji)
        self.refresh_table([])

    def refresh_table(self, events: list) -> None:
        """Redraw everything from a fresh view."""
        if not getattr(self, "ready", False):
            return
        v = self.view()
        if v is None:
            return
        app = self.momiji
        if events:
            self.query_one(LogPanel).add(app, events)
            self.message = Text("")
        hand = self.hand(v)
        self.selected = [c for c in self.selected if c in hand]
        self.cursor = min(self.cursor, max(len(hand) - 1, 0))
        self.query_one("#status", Static).update(self._status(v))
        self.query_one("#display", Static).update(Text("Display  ", style="bold") + display_text(v))
        self.query_one("#objectives", Static).update(self._objectives(v))
        self.query_one("#opponents", Static).update(self._opponents(v))
        self.query_one("#you", Static).update(self._you(v))
        self.query_one("#hand", Static).update(self._hand(v, hand))
        self._render_preview()
        self.refresh_bindings()

    def _status(self, v: engine.PlayerView) -> Text:
        app = self.momiji
        t = Text()
        t.append(f" Round {v.round} ", style="bold reverse")
        t.append(f" Deck {v.deck_size} · Torii {v.torii_left} · Discard {len(v.discard)} ")
        if v.end_trigger:
            t.append(" LAST ROUND ", style="bold yellow reverse")
            t.append(" ")
        if v.current == app.seat:
            if v.turn.revealed:
                t.append("Your turn: collect a column (c).", style="bold")
            elif not v.turn.main_done:
                t.append("Your turn: main action.", style="bold")
            else:
                t.append("Your turn: free actions or end (e).", style="bold")
        elif app.thinking is not None:
            t.append(f"{v.seats[app.thinking].name} is thinking…", style="italic")
        else:
            t.append(f"{v.seats[v.current].name}'s turn.", style="italic")
        return t

    def _objectives(self, v: engine.PlayerView) -> Text:
        t = Text("Objectives", style="bold")
        for i, o in enumerate(v.objectives, 1):
            owner = v.owner_of(o)
            t.append(f"  {i} ")
            t.append(OBJECTIVE_NAMES[o], style="" if owner is None else "dim")
            if owner is not None:
                t.append(f" ({v.seats[owner].name})", style="bold")
        return t

    def _seat_line(self, v: engine.PlayerView, i: int) -> Text:
        s = v.seats[i]
        t = Text()
        t.append("▶ " if v.current == i else "  ", style="bold")
        t.append(s.name, style="bold" + (" reverse" if v.current == i else ""))
        t.append(f"  {s.acorns} acorns · {s.hand_size} cards")
        if s.known:
            t.append(" (seen " + " ".join(CARD_NAME[c][:2] for c in s.known) + ")", style="dim")
        t.append(" · ")
        t.append_text(panorama_text(s, short=True))
        return t

    def _opponents(self, v: engine.PlayerView) -> Text:
        app = self.momiji
        lines = []
        for i in range(len(v.seats)):
            if i == app.seat:
                continue
            line = self._seat_line(v, i)
            line.append("\n    ")
            line.append_text(row_text(v.seats[i], memory=app.memory_mode))
            lines.append(line)
        return Text("\n").join(lines)

    def _you(self, v: engine.PlayerView) -> Text:
        app = self.momiji
        me = v.seats[app.seat]
        t = Text()
        t.append("▶ " if v.current == app.seat else "  ")
        t.append(me.name if me.name.lower() == "you" else f"{me.name} (you)", style="bold underline")
        t.append(f"  {me.acorns} acorns  ")
        t.append_text(panorama_text(me, numbered=True))
        t.append("\n    ")
        t.append_text(row_text(me, memory=app.memory_mode))
        return t

    def _hand(self, v: engine.PlayerView, hand: list[int]) -> Text:
        t = Text(f"Hand {len(hand)}/{HAND_LIMIT}", style="bold")
        for i, c in enumerate(hand):
            key = HAND_KEYS[i] if i < len(HAND_KEYS) else "·"
            chosen = c in self.selected
            t.append("  ")
            t.append(key, style="bold reverse" if chosen else "bold dim")
            cell = card_text(c)
            if chosen:
                cell.stylize("reverse")
            if i == self.cursor and self.my_turn(v):
                cell.stylize("underline")
            t.append_text(cell)
        if not hand:
            t.append("  (empty)", style="dim")
        return t

    def _render_preview(self) -> None:
        preview = self.query_one("#preview", Static)
        if self.message.plain:
            preview.update(self.message)
            return
        v = self.view()
        if v is None or not self.my_turn(v):
            preview.update(Text(""))
            return
        preview.update(self._play_preview(v))

    def _play_preview(self, v: engine.PlayerView) -> Text:
        """What the selected cards would do if played now (nothing is changed)."""
        app = self.momiji
        t = Text()
        if not self.selected:
            hint = "Select hand cards with 1–0 (or ←→ and space), then p to play, x to exchange."
            if v.turn.main_done:
                hint = "Main action done. Free actions (x, l) or e to end the turn."
            return Text(hint, style="dim")
        command = self._play_command(v)
        if v.turn.main_done or app.table is None:
            return Text(f"{len(self.selected)} selected.", style="dim")
        try:
            events = app.table.check(command)
        except IllegalCommand as exc:
            return Text(f"Cannot play that: {exc}", style="yellow")
        t.append("p plays: ", style="bold")
        me = v.seats[app.seat]
        parts = []
        for e in events:
            if isinstance(e, CardsPlayed):
                for card, side in zip(e.cards, e.sides):
                    where = f"new pile at the {side} end" if side else f"on {leaf_name(CARD_TYPE[card])}"
                    parts.append(f"{CARD_NAME[card][:2]} {where}")
            elif isinstance(e, PileClosed):
                parts.append(f"closes {leaf_name(e.leaf_type)}" + (" +torii" if e.torii else ""))
            elif isinstance(e, AcornsGained):
                parts.append(f"+{e.amount} acorns (pairs)")
        t.append("; ".join(parts))
        # Points each touched pile would be worth (RULES §7).
        touched = {CARD_TYPE[c] for c in self.selected}
        worth = []
        for pile in me.row:
            if pile.leaf_type in touched:
                added = [c for c in self.selected if CARD_TYPE[c] == pile.leaf_type]
                top = max(CARD_VALUE[c] for c in added)
                worth.append(f"{pile.leaf_type}={top}×{len(pile.cards) + len(added)}")
        if worth:
            t.append("  → " + " ".join(worth), style="dim")
        if any(s for s in command.new_pile_sides):
            t.append(f"  (s: side {self.side})", style="dim")
        return t

    def _play_command(self, v: engine.PlayerView) -> Play:
        me = v.seats[self.momiji.seat]
        have = {p.leaf_type for p in me.row}
        new = {CARD_TYPE[c] for c in self.selected if CARD_TYPE[c] not in have}
        return Play(self.momiji.seat, tuple(self.selected), tuple(self.side for _ in new))

    # ------------------------------------------------------------- footer

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show only the keys that apply now (RULES §3 timing)."""
        v = self.view()
        if v is None:
            return True
        mine = self.my_turn(v)
        main_open = mine and not v.turn.main_done
        me = v.me
        if action == "collect":
            return main_open
        if action == "side":
            return main_open and bool(self.selected)
        if action == "objective":
            cost = PAGODA_OBJECTIVE_COST if v.turn.boost == "pagoda" else OBJECTIVE_COST
            return main_open and me is not None and me.acorns >= cost and len(v.owners) < len(v.objectives)
        if action == "reveal":
            free = v.turn.boost == "waterfall"
            return main_open and v.deck_size > 0 and not v.turn.revealed and (
                free or (me is not None and me.acorns >= 1))
        if action == "play":
            return main_open and bool(self.selected)
        if action == "exchange":
            return mine and not v.turn.exchanged and len(self.selected) == 2
        if action == "landscape":
            return mine and v.turn.landscape is None and me is not None and me.acorns >= LANDSCAPE_COST and any(
                x not in me.used for x in me.panorama)
        if action == "discard":
            return mine and v.turn.main_done and me is not None and me.hand_size > HAND_LIMIT
        if action == "end_turn":
            return mine
        if action == "clear":
            return bool(self.selected) or bool(self.message.plain)
        return True

    # ------------------------------------------------------------ actions

    def action_toggle(self, index: int) -> None:
        """Select or unselect the hand card at ``index`` (0-based)."""
        v = self.view()
        if v is None:
            return
        hand = self.hand(v)
        if index >= len(hand):
            self.say(f"There is no card {HAND_KEYS[index]} in your hand.", "yellow")
            return
        self.cursor = index
        card = hand[index]
        if card in self.selected:
            self.selected.remove(card)
        else:
            self.selected.append(card)
        self.message = Text("")
        self.refresh_table([])

    def action_cursor(self, delta: int) -> None:
        """Move the hand cursor."""
        v = self.view()
        if v is None:
            return
        n = len(self.hand(v))
        if n:
            self.cursor = (self.cursor + delta) % n
        self.refresh_table([])

    def action_toggle_cursor(self) -> None:
        """Select the card under the cursor."""
        self.action_toggle(self.cursor)

    def action_clear(self) -> None:
        """Clear the selection and the message."""
        self.selected.clear()
        self.message = Text("")
        self.refresh_table([])

    def action_side(self) -> None:
        """Switch the end of the row where new piles go (RULES §4.2)."""
        self.side = "left" if self.side == "right" else "right"
        self.say(f"New piles go to the {self.side} end of your row.")

    def _not_my_turn(self) -> bool:
        if not self.my_turn():
            self.say("It is not your turn.", "yellow")
            return True
        return False

    def action_reveal(self) -> None:
        """Pay 1 acorn to reveal 4 cards, then choose a column (RULES §4.1)."""
        if self._not_my_turn():
            return
        if self.send(Reveal(self.momiji.seat)):
            self.action_collect()

    def action_collect(self) -> None:
        """Choose a column of the display to take (RULES §4.1)."""
        v = self.view()
        if v is None or self._not_my_turn():
            return
        columns = sorted({CARD_TYPE[c] for c in v.display}, key=v.types.index)
        if not columns:
            self.say("The display is empty: press r to pay for a reveal first (RULES §4.1).", "yellow")
            return
        want = min(TEAHOUSE_COLUMNS, len(columns)) if v.turn.boost == "teahouse" else 1
        self._ask_columns(v, columns, want, [])

    def _ask_columns(self, v: engine.PlayerView, columns: list[str], want: int, chosen: list[str]) -> None:
        if len(chosen) == want:
            self.send(Collect(self.momiji.seat, tuple(chosen)))
            return
        choices = []
        for t in columns:
            if t in chosen:
                continue
            cards = sorted((c for c in v.display if CARD_TYPE[c] == t), key=lambda c: CARD_VALUE[c])
            label = Text(f"{leaf_name(t)}: ", style=TYPE_STYLE[t]) + Text(" ").join(card_text(c) for c in cards)
            choices.append(Choice(t.lower(), label, t))
        title = "Collect which column?" if want == 1 else f"Tea House: column {len(chosen) + 1} of {want}"

        def done(value: object) -> None:
            if value is not None:
                self._ask_columns(v, columns, want, [*chosen, str(value)])

        self.app.push_screen(ChoiceScreen(title, choices), done)

    def action_play(self) -> None:
        """Play the selected cards (RULES §4.2)."""
        v = self.view()
        if v is None or self._not_my_turn():
            return
        if not self.selected:
            self.say("Select the cards to play first (keys 1–0).", "yellow")
            return
        if self.send(self._play_command(v)):
            self.selected.clear()

    def action_objective(self) -> None:
        """Activate a revealed objective (RULES §4.3)."""
        v = self.view()
        if v is None or self._not_my_turn():
            return
        cost = PAGODA_OBJECTIVE_COST if v.turn.boost == "pagoda" else OBJECTIVE_COST
        self.app.push_screen(
            ChoiceScreen(f"Activate which objective? ({cost} acorns)", self._objective_choices(v, cost)),
            lambda value: value is not None and self.send(ActivateObjective(self.momiji.seat, str(value))),
        )

    def _objective_choices(self, v: engine.PlayerView, cost: int) -> list[Choice]:
        me = v.seats[self.momiji.seat]
        out = []
        for i, o in enumerate(v.objectives, 1):
            owner = v.owner_of(o)
            reason = None
            if owner is not None:
                reason = f"owned by {v.seats[owner].name}"
            elif me.acorns < cost:
                reason = f"costs {cost}, you have {me.acorns}"
            out.append(Choice(str(i), objective_label(o), o, reason))
        return out

    def action_exchange(self) -> None:
        """Discard the 2 selected cards for 1 acorn (RULES §4.4)."""
        if self._not_my_turn():
            return
        if len(self.selected) != 2:
            self.say("Select exactly 2 cards to exchange (RULES §4.4).", "yellow")
            return
        if self.send(Exchange(self.momiji.seat, (self.selected[0], self.selected[1]))):
            self.selected.clear()

    def action_discard(self) -> None:
        """Discard the selected cards down to the hand limit (RULES §5.1)."""
        v = self.view()
        if v is None or self._not_my_turn():
            return
        if self.send(DiscardToLimit(self.momiji.seat, tuple(self.selected))):
            self.selected.clear()

    def action_end_turn(self) -> None:
        """End the turn (passing first if no main action is possible)."""
        v = self.view()
        if v is None or self._not_my_turn():
            return
        app = self.momiji
        me = v.seats[app.seat]
        if not v.turn.main_done:
            legal = app.table.legal(app.seat) if app.table else []
            if any(isinstance(c, Pass) for c in legal):
                if not self.send(Pass(app.seat)):
                    return
            else:
                self.say("Take your main action first: c collect, p play or o objective (RULES §3).", "yellow")
                return
        if me.hand_size > HAND_LIMIT:
            excess = me.hand_size - HAND_LIMIT
            self.say(f"You hold {me.hand_size} cards: select {excess} and press d to discard (RULES §5.1).",
                     "yellow")
            return
        self.send(EndTurn(app.seat))

    def action_landscape(self) -> None:
        """Use one of your landscapes' powers (RULES §1.5, §4.5)."""
        v = self.view()
        if v is None or self._not_my_turn():
            return
        me = v.seats[self.momiji.seat]
        choices = []
        for i, lid in enumerate(me.panorama, 1):
            part, name, power = LANDSCAPES[lid]
            reason = None
            if lid in me.used:
                reason = "used"
            elif v.turn.landscape is not None:
                reason = "one landscape per turn"
            elif part == MIDDAY and v.turn.main_done:
                reason = "midday: before the main action only"
            elif me.acorns < LANDSCAPE_COST:
                reason = "costs 1 acorn"
            choices.append(Choice(str(i), f"{name} ({part}): {power}", lid, reason))
        self.app.push_screen(ChoiceScreen("Use which landscape? (1 acorn)", choices),
                             lambda value: value is not None and self._use_landscape(v, str(value)))

    def _use_landscape(self, v: engine.PlayerView, lid: str) -> None:
        seat = self.momiji.seat
        name = LANDSCAPES[lid][1]
        if lid in ("koi", "fox", "crane", "bell") and not self.selected:
            need = {"koi": "up to 3 cards", "fox": "the cards to discard", "crane": "1 card",
                    "bell": "1 card"}[lid]
            self.say(f"{name}: select {need} from your hand first, then press l.", "yellow")
            return
        hand_cards = tuple(self.selected) if lid in ("koi", "fox", "crane", "bell") else ()

        def use(card: object = None, objective: object = None) -> None:
            command = UseLandscape(seat, lid, hand_cards=hand_cards,
                                   card=card if isinstance(card, int) else None,
                                   objective=str(objective) if objective is not None else None)
            if self.send(command):
                self.selected.clear()

        if lid in ("lantern", "bell", "terrace"):
            source = v.discard if lid == "terrace" else v.display
            if not source:
                self.say(f"{name}: the {'discard pile' if lid == 'terrace' else 'display'} is empty.", "yellow")
                return
            unique = sorted(set(source), key=lambda c: (CARD_TYPE[c], CARD_VALUE[c]))
            choices = [Choice(HAND_KEYS[i] if i < 10 else "·", card_text(c), c) for i, c in enumerate(unique)]
            self.app.push_screen(ChoiceScreen(f"{name}: which card?", choices),
                                 lambda card: card is not None and use(card=card))
        elif lid == "moongate":
            me = v.seats[seat]
            cost = OBJECTIVE_COST
            choices = self._objective_choices(v, cost)
            choices = [Choice(c.key, c.label, c.value,
                              c.reason or (None if me.acorns >= cost + LANDSCAPE_COST else
                                           f"needs {cost + LANDSCAPE_COST} acorns"))
                       for c in choices]
            self.app.push_screen(ChoiceScreen(f"{name}: activate which objective?", choices),
                                 lambda o: o is not None and use(objective=o))
        else:
            use()

    def action_menu(self) -> None:
        """Leave the table for the menu; the game is saved as it stands."""
        self.momiji.close_table()
        self.app.pop_screen()
