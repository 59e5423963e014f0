"""The main table: display, objectives, every seat's row, your hand, the log.

Direct keys (each binding has an id ``table.*``, so a key map can change it):

* ``1``–``0`` select hand cards (the digit is drawn before each card);
* the type letters ``M G C O Z K`` (shift + letter) select a display column
  to collect; while you build a play they address your piles instead: the
  pile's letter adds the hand card that fits on it;
* arrows or ``h j k l`` move a cursor over the display and the hand,
  ``space`` selects under it; the mouse selects by clicking;
* ``⏎`` confirms what the preview line shows (``p`` plays, ``c`` collects),
  ``Esc`` steps back; ``s`` changes the ends new piles go to;
* ``r`` reveal, ``o`` objective, ``x`` exchange, ``a`` landscape,
  ``d`` discard, ``e`` end turn, ``u`` undo, ``m`` memory mode, ``q`` menu.

Keys that do not apply now are left out of the footer; pressing one says
why. Every choice goes to the session through ``MomijiApp.submit``.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Static

from .. import engine
from ..engine import (
    ActivateObjective, Collect, DiscardToLimit, EndTurn, Exchange, IllegalCommand, Pass, Play, Reveal,
    UseLandscape,
)
from ..engine import events as ev
from ..engine.cards import CARD_TYPE, CARD_VALUE
from ..engine.rules_data import (
    FOX_DISCARDS_PER_ACORN, HAND_LIMIT, KOI_MAX, LANDSCAPE_COST, LANDSCAPES, LEAF_TYPES, MIDDAY,
    OBJECTIVE_COST, PAGODA_OBJECTIVE_COST, REVEAL_COST, REVEAL_COUNT, TEAHOUSE_COLUMNS,
)
from .app import MomijiApp
from .choice import Choice, ChoiceScreen
from .models.log_lines import log_line
from .widgets.log_panel import LogPanel
from .models.preview import PlayPreview, arrangements, new_pile_types, play_preview
from .models.render import (
    ACORN_SIGN, CLICK_META, TORII, big_card_lines, big_pile_block, card_text, cards_text, click, display_columns, display_text, leaf_name,
    join_columns, objective_label, objectives_text, panorama_text, row_points, row_text,
)
from .sizing import SizedScreen, SizeNotice

HAND_KEYS = "1234567890"
BIG_CARDS_HEIGHT = 34  # rows from which the display, your row and hand are drawn as big cards
BIG_OPPONENTS_HEIGHT = 50  # rows from which the other rows too, and objectives one per line
HAND_CARD_POWERS = {"koi", "fox", "crane", "bell"}  # powers that use cards from your hand
# Actions whose refusal is explained when their key is pressed.
GAME_ACTIONS = {
    "collect", "reveal", "play", "confirm", "ends", "objective", "exchange", "landscape",
    "discard", "end_turn", "undo",
}


def hand_order(hand: tuple[int, ...]) -> list[int]:
    """The hand as shown: by leaf type, then value."""
    return sorted(hand, key=lambda c: (LEAF_TYPES.index(CARD_TYPE[c]), CARD_VALUE[c], c))


def _undo_command():
    """The engine's ``Undo`` command class, if this engine has one."""
    return getattr(engine, "Undo", None)


class TableScreen(SizedScreen):
    """Where the game is played."""

    MIN_SIZE = (60, 20)

    BINDINGS = [
        Binding("enter", "confirm", "Confirm", id="table.confirm"),
        Binding("c", "collect", "Collect", id="table.collect"),
        Binding("r", "reveal", "Reveal", id="table.reveal"),
        Binding("p", "play", "Play", show=False, id="table.play"),
        Binding("s", "ends", "Ends", id="table.ends"),
        Binding("o", "objective", "Objective", id="table.objective"),
        Binding("x", "exchange", "Exchange", id="table.exchange"),
        Binding("a", "landscape", "Landscape", id="table.landscape"),
        Binding("d", "discard", "Discard", id="table.discard"),
        Binding("e", "end_turn", "End turn", id="table.end_turn"),
        Binding("u", "undo", "Undo", id="table.undo"),
        Binding("escape", "back", "Back", id="table.back"),
        Binding("question_mark,f1", "app.help", "Help", id="table.help"),
        Binding("q", "menu", "Menu", id="table.menu"),
        Binding("m", "app.toggle_memory", "Memory", show=False, id="table.memory"),
        Binding("left,h", "move(-1)", "Left", show=False, id="table.left"),
        Binding("right,l", "move(1)", "Right", show=False, id="table.right"),
        Binding("up,k", "zone('display')", "Up", show=False, id="table.up"),
        Binding("down,j", "zone('hand')", "Down", show=False, id="table.down"),
        Binding("space", "select", "Select", show=False, id="table.select"),
        Binding("pageup", "log_page(-1)", "Log up", show=False, id="table.log_up"),
        Binding("pagedown", "log_page(1)", "Log down", show=False, id="table.log_down"),
        *[Binding(k, f"card({i})", f"Card {k}", show=False, id=f"table.card{k}")
          for i, k in enumerate(HAND_KEYS)],
        *[Binding(f"{t},shift+{t.lower()}", f"type('{t}')", leaf_name(t), show=False, id=f"table.type_{t}")
          for t in LEAF_TYPES],
    ]

    def __init__(self) -> None:
        super().__init__()
        self.selected: list[int] = []  # hand cards, in the order chosen
        self.columns: list[str] = []  # display columns chosen for a collect
        self.zone = "hand"
        self.cursor = {"hand": 0, "display": 0}
        self.ends = 0  # which arrangement of new piles (see preview.arrangements)
        self.pending: tuple[str, ...] | None = None  # ("landscape", id) or ("discard", then_end)
        self.message = Text("")
        self.message_is_error = False
        self.last_move = Text("")  # another seat's latest move, shown while it plays
        self._footer_keys: tuple = ()
        self.ready = False

    def compose(self) -> ComposeResult:
        yield SizeNotice(id="size-notice")
        with Horizontal(id="table-body"):
            with Vertical(id="table"):
                yield Static(id="status")
                yield Static(id="display")
                yield Static(id="objectives")
                yield Static(id="opponents")
                yield Static(id="spacer")
                yield Static(id="you")
                yield Static(id="hand")
                yield Static(id="message")
                yield Static(id="preview")
            yield LogPanel(id="log")
        yield Footer(compact=True)

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

    def key(self, binding_id: str) -> str:
        """The key shown for a binding (the user's key map applied)."""
        return self.momiji.key_for(binding_id)

    def say(self, text: str | Text, *, error: bool = False) -> None:
        """Show a message above the preview (a refusal is styled as an error)."""
        self.message = text if isinstance(text, Text) else Text(text)
        self.message_is_error = error and bool(self.message.plain)
        if self.ready:
            widget = self.query_one("#message", Static)
            widget.update(self.message)
            widget.display = bool(self.message.plain)
            widget.set_class(self.message_is_error, "-error")

    def refuse(self, text: str) -> None:
        """Explain a refusal (nothing changed)."""
        self.say(Text("✗ " + text), error=True)

    def send(self, command: engine.Command) -> bool:
        """Submit; on refusal explain why. Returns True when accepted."""
        error = self.momiji.submit(command)
        if error:
            self.refuse(error)
            return False
        self.say("")
        return True

    def step_done(self) -> None:
        """Forget the selection after an accepted command."""
        self.selected.clear()
        self.columns.clear()
        self.pending = None
        self.ends = 0

    def _can_pass(self) -> bool:
        """True when no main action is possible, so the turn may pass (RULES §3)."""
        app = self.momiji
        legal = app.table.legal(app.seat) if app.table else []
        return any(isinstance(c, Pass) for c in legal)

    def cost(self, v: engine.PlayerView) -> int:
        """What an objective costs now (RULES §4.3; Pagoda §1.5)."""
        return PAGODA_OBJECTIVE_COST if v.turn.boost == "pagoda" else OBJECTIVE_COST

    # ------------------------------------------------------------ drawing

    def on_mount(self) -> None:
        self.ready = True
        self.query_one(LogPanel).reset(self.momiji)
        self.fit_to_size()
        self.refresh_table([])

    def size_changed(self) -> None:
        super().size_changed()
        if self.ready:
            self.refresh_table([])

    def on_resize(self, event: events.Resize) -> None:
        if self.ready:
            self.refresh_table([])

    def reset_log(self) -> None:
        """Redraw the whole log (memory mode changed)."""
        if self.ready:
            self.query_one(LogPanel).reset(self.momiji)

    def refresh_table(self, events: list) -> None:
        """Redraw everything from a fresh view."""
        if not self.ready:
            return
        v = self.view()
        if v is None:
            return
        app = self.momiji
        if events:
            self.query_one(LogPanel).add(app, events)
            names = [seat.name for seat in app.table.seats] if app.table else []
            lines = []
            for event in events:
                seat = getattr(event, "seat", None)
                if seat is not None and seat != app.seat and not isinstance(event, ev.TurnEnded):
                    line = log_line(event, app.seat, names, memory=app.memory_mode)
                    if line is not None:
                        lines.append(line)
            if lines:
                self.last_move = Text(" ").join(lines)
            if any(isinstance(e, ev.TurnEnded) for e in events):
                self.message = Text("")  # a new turn: old messages are stale
        hand = self.hand(v)
        self.selected = [c for c in self.selected if c in hand]
        present = [t for t, _ in display_columns(v)]
        self.columns = [t for t in self.columns if t in present]
        if not self.my_turn(v) or v.turn.main_done:
            self.columns.clear()
        if self.pending and not self.my_turn(v):
            self.pending = None
        self.cursor["hand"] = min(self.cursor["hand"], max(len(hand) - 1, 0))
        self.cursor["display"] = min(self.cursor["display"], max(len(present) - 1, 0))
        width = self.query_one("#table").size.width or self.app.size.width
        self.query_one("#status", Static).update(self._status(v))
        self.query_one("#display", Static).update(self._display(v, present))
        self.query_one("#objectives", Static).update(
            objectives_text(v, self.cost(v), pagoda=v.turn.boost == "pagoda" and self.my_turn(v),
                            short=width < 150, listed=self.app.size.height >= BIG_OPPONENTS_HEIGHT))
        self.query_one("#opponents", Static).update(self._opponents(v))
        self.query_one("#you", Static).update(self._you(v))
        self.query_one("#hand", Static).update(self._hand(v, hand))
        self.say(self.message, error=self.message_is_error)
        self.query_one("#preview", Static).update(self._preview(v))
        # The footer is rebuilt only when the keys that apply change (a
        # rebuild per bot move would cost more than the rest of the redraw).
        keys = tuple(self.check_action(a, ()) for a in sorted(GAME_ACTIONS | {"back"}))
        if keys != self._footer_keys:
            self._footer_keys = keys
            self.refresh_bindings()

    def _status(self, v: engine.PlayerView) -> Text:
        app = self.momiji
        t = Text()
        t.append(f" Round {v.round} ", style="bold reverse")
        t.append(f" Deck {v.deck_size} · Torii {v.torii_left} · Discard {len(v.discard)}")
        if v.discard:
            t.append(" ")
            t.append_text(card_text(v.discard[-1]))
        if app.memory_mode:
            t.append(" · memory", style="italic")
        t.append("  ")
        if v.end_trigger and v.phase == "play":
            t.append(" LAST ROUND ", style="bold reverse")
            t.append(" ")
        if v.phase == "ended":
            t.append("The game is over.", style="bold")
        elif v.current == app.seat:
            t.append(" ▶ Your turn ", style="bold reverse")
        elif app.thinking is not None:
            t.append(f"{v.seats[app.thinking].name} is thinking…", style="italic")
        else:
            t.append(f"{v.seats[v.current].name}'s turn", style="italic")
        return t

    def _display(self, v: engine.PlayerView, present: list[str]) -> Text:
        cursor = None
        if self.zone == "display" and present and self.my_turn(v):
            cursor = present[self.cursor["display"] % len(present)]
        if self.big and present:
            # Each column: its key letter, then its cards; a chosen column is lifted.
            blocks = [[Text("Display", style="bold"), Text(""), Text(""), Text("")]]
            for leaf, cards in display_columns(v):
                chosen = leaf in self.columns
                label = Text(" ")
                label.append(leaf, style=("bold reverse" if chosen else "bold")
                             + (" underline" if leaf == cursor else ""))
                label.append(f" {leaf_name(leaf)}", style="dim")
                card_lines = join_columns([big_card_lines(c) for c in cards], gap=1).split("\n")
                block = [label, *card_lines, Text("")] if chosen else [label, Text(""), *card_lines]
                for line in block:
                    line.stylize(click(f"column_click('{leaf}')"))
                blocks.append(block)
            return join_columns(blocks, gap=3)
        t = Text("Display ", style="bold")
        t.append_text(display_text(v, selected=self.columns, cursor=cursor))
        return t

    def _seat_head(self, v: engine.PlayerView, i: int) -> Text:
        s = v.seats[i]
        t = Text()
        t.append("▶ " if v.current == i else "  ", style="bold")
        t.append(s.name, style="bold")
        table = self.momiji.table
        level = table.seats[i].level if table is not None and i < len(table.seats) else None
        if level:
            t.append(f" ({level})", style="dim")
        cards = "card" if s.hand_size == 1 else "cards"
        t.append(f"  {s.acorns}{ACORN_SIGN} {s.hand_size} {cards} · {row_points(s)} pile pts")
        t.append("  ")
        t.append_text(panorama_text(s, short=True))
        if s.known:
            # Cards seen entering that hand (RULES §8): as many as fit the line.
            room = max(self.query_one("#table").size.width, 40) - t.cell_len - 8
            fit = max(room // 5, 1)
            t.append("  seen ", style="dim")
            t.append_text(cards_text(s.known[:fit]))
            if len(s.known) > fit:
                t.append(f" +{len(s.known) - fit}", style="dim")
        return t

    def _opponents(self, v: engine.PlayerView) -> Text:
        app = self.momiji
        lines = []
        big = self.app.size.height >= BIG_OPPONENTS_HEIGHT and self.big
        for i in range(len(v.seats)):
            if i == app.seat:
                continue
            line = self._seat_head(v, i)
            seat = v.seats[i]
            if big and seat.row:
                line.append("\n")
                marker = any(p.closed for p in seat.row)
                blocks = [big_pile_block(p, memory=app.memory_mode, marker=marker) for p in seat.row]
                line.append_text(join_columns([[Text("  ")], *blocks], gap=2))
            else:
                line.append("\n    ")
                line.append_text(row_text(seat, memory=app.memory_mode))
            lines.append(line)
        return Text("\n").join(lines)

    @property
    def big(self) -> bool:
        """Draw your hand and row as big cards (when the window is tall)."""
        w, h = self.app.size
        return h >= BIG_CARDS_HEIGHT and w >= 70

    def _you(self, v: engine.PlayerView) -> Text:
        app = self.momiji
        me = v.seats[app.seat]
        t = Text()
        t.append("▶ " if v.current == app.seat else "  ", style="bold")
        t.append(me.name if me.name.lower() == "you" else f"{me.name} (you)", style="bold underline")
        t.append(f"  {me.acorns}{ACORN_SIGN} · {row_points(me)} pts  ")
        t.append_text(panorama_text(me, numbered=True, short=self.app.size.width < 100))
        if self.app.size.height >= BIG_OPPONENTS_HEIGHT:
            for i, lid in enumerate(me.panorama, 1):
                part, name, power = LANDSCAPES[lid]
                used = lid in me.used
                t.append("\n    ")
                t.append(f"{i} {name} ({part}): {power}" + (" — used" if used else ""),
                         style="dim strike" if used else "dim")
        if self.big and me.row:
            blocks = []
            marker = any(p.closed for p in me.row)
            for p in me.row:
                block = big_pile_block(p, memory=app.memory_mode, marker=marker)
                score = Text(f"={CARD_VALUE[p.cards[-1]] * len(p.cards)}", style="bold")
                block[-1] = score + block[-1]
                for line in block:
                    line.stylize(click(f"pile('{p.leaf_type}')"))
                blocks.append(block)
            t.append("\n")
            t.append_text(join_columns(blocks, gap=2))
        else:
            t.append("\n    ")
            t.append_text(row_text(me, memory=app.memory_mode, clickable=True, points=True))
        return t

    def _hand(self, v: engine.PlayerView, hand: list[int]) -> Text:
        t = Text(f"Hand {len(hand)}/{HAND_LIMIT}", style="bold")
        if len(hand) > HAND_LIMIT:
            t.stylize("reverse")
        cursor = self.zone == "hand" and self.my_turn(v)
        if not hand:
            t.append("  (empty)", style="dim")
            return t
        if self.big:
            # Big cards; a selected card is lifted by one line.
            blocks = []
            for i, c in enumerate(hand):
                chosen = c in self.selected
                key = self.key(f"table.card{HAND_KEYS[i]}") if i < len(HAND_KEYS) else "·"
                label_style = "bold reverse" if chosen else "bold"
                if cursor and i == self.cursor["hand"]:
                    label_style += " underline"
                label = Text("  ") + Text(key, style=label_style)
                card = big_card_lines(c)
                block = [label, *card, Text("")] if chosen else [label, Text(""), *card]
                for line in block:
                    line.stylize(click(f"card({i})"))
                blocks.append(block)
            if self.selected:
                t.append(f"  {len(self.selected)} selected", style="italic")
            t.append("\n")
            t.append_text(join_columns(blocks, gap=1))
            return t
        for i, c in enumerate(hand):
            chosen = c in self.selected
            key = self.key(f"table.card{HAND_KEYS[i]}") if i < len(HAND_KEYS) else "·"
            cell = Text()
            cell.append(" [" if chosen else "  ", style="bold")
            badge_style = "bold reverse" if chosen else "bold"
            if cursor and i == self.cursor["hand"]:
                badge_style += " underline"
            cell.append(key, style=badge_style)
            cell.append_text(card_text(c))
            cell.append("]" if chosen else " ", style="bold")
            cell.stylize(click(f"card({i})"))
            t.append_text(cell)
        return t

    # ------------------------------------------------------------ preview

    def _preview(self, v: engine.PlayerView) -> Text:
        """What ⏎ would do now, or a hint (nothing is changed)."""
        app = self.momiji
        if v.phase != "play":
            return Text("")
        if not self.my_turn(v):
            t = Text()
            if self.last_move.plain:
                t.append("Last move: ", style="bold")
                t.append_text(self.last_move)
                t.append("\n")
            who = v.seats[v.current].name
            hint = f"{who} is playing; you can look around (? help, m memory mode, q menu)."
            if self.selected:
                hint = f"{len(self.selected)} selected — wait for your turn."
            t.append(hint, style="dim")
            return t
        me = v.seats[app.seat]
        if self.pending is not None:
            return self._pending_preview(v)
        if self.columns:
            return self._collect_preview(v)
        if not self.selected:
            k = self.key
            if v.turn.limit_discarded:
                return Text(f"Discarded down to the hand limit: {k('table.end_turn')} ends the turn "
                            f"(RULES §5.1); {k('table.undo')} undoes, the discard included.", style="bold")
            if v.turn.main_done:
                free = []
                if not v.turn.exchanged:
                    free.append(f"{k('table.exchange')} exchanges 2 cards")
                if self.why_not("landscape", v) is None:
                    free.append(f"{k('table.landscape')} uses a landscape")
                t = Text("Main action done. ", style="bold")
                t.append((("Free actions: " + ", ".join(free) + "; ") if free else "")
                         + f"{k('table.end_turn')} ends the turn.", style="dim")
                if me.hand_size > HAND_LIMIT:
                    t.append(f" You hold {me.hand_size}: {k('table.end_turn')} asks which "
                             f"{me.hand_size - HAND_LIMIT} to discard.", style="bold")
                return t
            if v.turn.revealed:
                letters = " ".join(t for t, _ in display_columns(v))
                return Text(f"Collect a column: press its letter ({letters}) or click it, then "
                            f"{k('table.confirm')}.", style="bold")
            if self._can_pass():
                return Text(f"No main action is possible: {k('table.end_turn')} passes and ends "
                            "your turn (RULES §3); free actions first if you like.", style="bold")
            boost = v.turn.boost
            if boost is not None:
                _, name, power = LANDSCAPES[boost]
                t = Text(f"{name} this turn: {power}. ", style="bold")
                t.append("Now collect, play or take an objective.", style="dim")
                return t
            n = min(len(self.hand(v)), len(HAND_KEYS))
            keys = f"1–{HAND_KEYS[n - 1]}" if n > 1 else "1"
            reveal = f"; {k('table.reveal')} reveals 4 more (1{ACORN_SIGN})" if v.deck_size else ""
            return Text(f"Select cards ({keys} or click) to play, or a column (its letter) to collect"
                        f"{reveal}.", style="dim")
        if v.turn.main_done:
            n = len(self.selected)
            x = self.key("table.exchange")
            return Text(f"{n} selected. " + (f"{x} exchanges them for 1{ACORN_SIGN}." if n == 2 else
                                             f"Main action done: {x} exchanges 2 cards."), style="dim")
        return self._play_preview(v)

    def _play_command(self, v: engine.PlayerView) -> Play:
        me = v.seats[self.momiji.seat]
        new = new_pile_types(me, self.selected)
        options = arrangements(me, new)
        sides = options[self.ends % len(options)] if options else ()
        return Play(self.momiji.seat, tuple(self.selected), tuple(sides))

    def _check_play(self, v: engine.PlayerView) -> tuple[PlayPreview | None, str | None]:
        table = self.momiji.table
        if table is None:
            return None, "There is no game on the table."
        try:
            events = table.check(self._play_command(v))
        except IllegalCommand as exc:
            return None, str(exc)
        me = v.seats[self.momiji.seat]
        return play_preview(me, events), None

    def _button(self, label: str) -> Text:
        """A clickable ``⏎ label`` button (runs confirm)."""
        t = Text()
        t.append(f" {self.key('table.confirm')} {label} ", style="bold reverse")
        t.stylize(click("confirm"))
        return t

    def _play_preview(self, v: engine.PlayerView) -> Text:
        preview, error = self._check_play(v)
        me = v.seats[self.momiji.seat]
        if preview is None:
            t = Text("✗ Not a play: ", style="bold")
            t.append(error or "")
            if len(self.selected) == 2 and not v.turn.exchanged:
                t.append(f"  ({self.key('table.exchange')} exchanges these 2 for 1{ACORN_SIGN})", style="dim")
            return t
        t = self._button("Play")
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
        # The row after the play, with the points of each pile (RULES §7).
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
        t.append(f"  {row_points(me)}→{preview.points} pts", style="bold")
        options = arrangements(me, new_pile_types(me, self.selected))
        if len(options) > 1:
            t.append(f"  {self.key('table.ends')}: other ends ({self.ends % len(options) + 1}/{len(options)})",
                     style="dim")
        return t

    def _collect_preview(self, v: engine.PlayerView) -> Text:
        me = v.seats[self.momiji.seat]
        want = self._columns_wanted(v)
        cols = dict(display_columns(v))
        taken = [c for t in self.columns for c in cols.get(t, [])]
        if len(self.columns) < want:
            t = Text(f"Tea House: choose {want - len(self.columns)} more column (its letter).", style="bold")
            return t
        t = self._button("Collect")
        t.append(" " + " + ".join(leaf_name(x) for x in self.columns) + ": ")
        t.append_text(cards_text(taken))
        after = me.hand_size + len(taken)
        t.append(f" → hand {after}/{HAND_LIMIT}")
        if after > HAND_LIMIT:
            t.append(f" (discard {after - HAND_LIMIT} before the turn ends)", style="bold")
        return t

    def _pending_preview(self, v: engine.PlayerView) -> Text:
        assert self.pending is not None
        confirm = self.key("table.confirm")
        n = len(self.selected)
        if self.pending[0] == "discard":
            me = v.seats[self.momiji.seat]
            need = me.hand_size - HAND_LIMIT
            t = self._button("Discard")
            t.append(f" Hand limit {HAND_LIMIT} (RULES §5.1): select {need} card{'s' * (need != 1)} to "
                     f"discard ({n} selected); {confirm} discards"
                     f"{' and ends the turn' if self.pending[1] else ''}, Esc goes back.")
            return t
        lid = self.pending[1]
        name = LANDSCAPES[lid][1]
        t = self._button(name)
        t.append(" ")
        if lid == "koi":
            t.append(f"select up to {KOI_MAX} cards to discard and redraw ({n} selected)")
        elif lid == "fox":
            t.append(f"select cards to discard: {n} selected → +{n // FOX_DISCARDS_PER_ACORN}{ACORN_SIGN}")
        elif lid == "crane":
            t.append("select 1 card to place on one of your piles")
            if n == 1:
                c = self.selected[0]
                t.append(" → ")
                t.append_text(card_text(c))
                t.append(f" on {leaf_name(CARD_TYPE[c])}")
        elif lid == "bell":
            t.append("select 1 card to swap with a display card (chosen next)")
        t.append(f"; {confirm} uses it (1{ACORN_SIGN}), Esc cancels.")
        return t

    # ------------------------------------------------------------- footer

    def why_not(self, action: str, v: engine.PlayerView | None = None) -> str | None:
        """Why ``action`` cannot be taken now (None when it can)."""
        v = v or self.view()
        if v is None:
            return "There is no game on the table."
        if action not in GAME_ACTIONS:
            return None
        if v.phase != "play":
            return "The game is over." if v.phase == "ended" else "The game has not started."
        if not self.my_turn(v):
            return f"It is {v.seats[v.current].name}'s turn."
        me = v.me
        assert me is not None
        main_open = not v.turn.main_done
        if action == "end_turn":
            if main_open and not self._can_pass():
                return "Take your main action first: collect, play or an objective (RULES §3)."
            return None
        if action == "undo":
            if _undo_command() is None or not getattr(v.turn, "since_checkpoint", 0):
                return "Nothing to undo since your turn began or since a hidden card was revealed."
            return None
        if v.turn.limit_discarded:
            return (f"You have discarded down to the hand limit: your turn is ending (RULES §5.1); "
                    f"{self.key('table.end_turn')} ends it, {self.key('table.undo')} undoes, the discard included.")
        if action == "confirm":
            if self.pending is not None and self.pending[0] == "discard":
                need = me.hand_size - HAND_LIMIT
                if len(self.selected) != need:
                    return f"Select exactly {need} card{'s' * (need != 1)} to discard (RULES §5.1)."
                return None
            if self.pending is not None:
                if not self.selected and self.pending[1] != "fox":
                    return "Select the cards for this power first."
                return None
            if self.columns:
                if len(self.columns) < self._columns_wanted(v):
                    return "Tea House: choose one more column."
                return None
            if self.selected and main_open:
                return self._check_play(v)[1]
            return "Nothing to confirm yet: select cards to play or a column to collect."
        if action == "exchange":
            if v.turn.exchanged:
                return "You have exchanged this turn already (RULES §3: each free action once)."
            if len(self.selected) != 2:
                return "Select exactly 2 cards to exchange for 1 acorn (RULES §4.4)."
            return None
        if action == "landscape":
            if v.turn.landscape is not None:
                return "You have used a landscape this turn already (one per turn)."
            if not any(x not in me.used for x in me.panorama):
                return "Every landscape of yours is used (once per game, RULES §1.5)."
            if me.acorns < LANDSCAPE_COST:
                return f"A landscape costs {LANDSCAPE_COST} acorn; you have none (RULES §4.5)."
            return None
        if action == "discard":
            if me.hand_size <= HAND_LIMIT:
                return f"You hold {me.hand_size} cards: the limit is {HAND_LIMIT} (RULES §5.1)."
            if main_open:
                return "Take your main action first; the hand limit applies at the end of the turn."
            return None
        if not main_open:
            return "You have taken your main action this turn (RULES §3)."
        if action in ("collect", "reveal", "objective") and self.selected and self.pending is None:
            return (f"You are building a play: {self.key('table.confirm')} plays it, "
                    f"{self.key('table.back')} clears the selection.")
        if action == "collect":
            if not v.display:
                return "The display is empty: r pays 1 acorn to reveal 4 cards first (RULES §4.1)."
            return None
        if action == "reveal":
            if v.turn.revealed:
                return "You have revealed already: now collect a column (RULES §4.1)."
            if v.deck_size == 0:
                return "The deck is empty: there is nothing to reveal."
            if me.acorns < REVEAL_COST and v.turn.boost != "waterfall":
                return f"A reveal costs {REVEAL_COST} acorn; you have none (RULES §4.1)."
            return None
        if v.turn.revealed:
            return "After a reveal your main action must be a collect (RULES §4.1)."
        if action == "play":
            if not self.selected:
                return "Select the cards to play first (1–0, or click them)."
            return self._check_play(v)[1]
        if action == "ends":
            if not self.selected:
                return "Select cards that start new piles first."
            me_new = new_pile_types(me, self.selected)
            if len(arrangements(me, me_new)) < 2:
                return "This play starts no pile whose end you can choose."
            return None
        if action == "objective":
            cost = self.cost(v)
            if len(v.owners) >= len(v.objectives):
                return "Every objective has an owner already."
            if me.acorns < cost:
                return f"An objective costs {cost} acorns; you have {me.acorns} (RULES §4.3)."
            return None
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show only the keys that apply now (RULES §3 timing)."""
        if self.too_small:
            return action in ("menu",)
        if action == "back":
            return bool(self.selected or self.columns or self.pending or self.message.plain)
        if action in GAME_ACTIONS:
            return self.why_not(action) is None
        return True

    def on_key(self, event: events.Key) -> None:
        """A key whose action does not apply now: say why.

        The check waits until the keys queued before this one are handled
        (keys typed fast all arrive before the first one's binding runs), so
        it sees the table as this key's binding will; it never stops a key."""
        if self.too_small:
            return
        try:
            chain = self._modal_binding_chain
        except Exception:  # pragma: no cover - Textual internals
            return
        for namespace, bindings in chain:
            if namespace is not self:
                continue
            for binding in bindings.key_to_bindings.get(event.key, []):
                name = binding.action.split("(")[0]
                if name in GAME_ACTIONS:
                    self.app.call_next(self._explain_refusal, name)
                    return

    def _explain_refusal(self, action: str) -> None:
        reason = self.why_not(action)
        if reason and self.is_mounted:
            self.refuse(reason)

    async def on_click(self, event: events.Click) -> None:
        """Run the action of what was clicked (a card, a column, a pile, ⏎)."""
        action = event.style.meta.get(CLICK_META) if event.style else None
        if not action or self.too_small:
            return
        event.stop()
        name = action.split("(")[0]
        reason = self.why_not(name) if name in GAME_ACTIONS else None
        if reason:
            self.refuse(reason)
            return
        await self.run_action(action)

    # ------------------------------------------------------- selection

    def _selection_changed(self) -> None:
        self.ends = 0
        self.say("")
        self.refresh_table([])

    def action_card(self, index: int) -> None:
        """Select or unselect the hand card at ``index`` (0-based)."""
        v = self.view()
        if v is None:
            return
        hand = self.hand(v)
        if index >= len(hand):
            key = HAND_KEYS[index] if index < len(HAND_KEYS) else str(index + 1)
            self.refuse(f"There is no card {key} in your hand.")
            return
        self.zone = "hand"
        self.cursor["hand"] = index
        card = hand[index]
        if card in self.selected:
            self.selected.remove(card)
        else:
            self.selected.append(card)
            if self.pending is None:
                self.columns.clear()
        self._selection_changed()

    def action_column(self, leaf_type: str) -> None:
        """Select or unselect a display column for a collect (RULES §4.1)."""
        v = self.view()
        if v is None:
            return
        if self.pending is not None:
            self.refuse("Finish or cancel (Esc) the landscape first.")
            return
        reason = self.why_not("collect", v)
        if reason:
            self.refuse(reason)
            return
        present = [t for t, _ in display_columns(v)]
        if leaf_type not in present:
            self.refuse(f"The display has no {leaf_name(leaf_type)} column.")
            return
        self.zone = "display"
        self.cursor["display"] = present.index(leaf_type)
        if leaf_type in self.columns:
            self.columns.remove(leaf_type)
        else:
            want = self._columns_wanted(v)
            self.columns = [*self.columns, leaf_type][-want:]
            self.selected.clear()
        self._selection_changed()

    def action_column_click(self, leaf_type: str) -> None:
        """A click on a column selects it; a click on the selected column
        collects (as ⏎ would)."""
        v = self.view()
        if v is not None and leaf_type in self.columns and len(self.columns) == self._columns_wanted(v):
            reason = self.why_not("collect", v)
            if reason:
                self.refuse(reason)
            else:
                self.action_collect()
            return
        self.action_column(leaf_type)

    def action_pile(self, leaf_type: str) -> None:
        """A pile's key: add the hand card that fits on that pile (or starts
        it) to the play; again for a second card; unselects when none fits."""
        v = self.view()
        if v is None:
            return
        me = v.seats[self.momiji.seat]
        hand = self.hand(v)
        pile = next((p for p in me.row if p.leaf_type == leaf_type), None)
        if pile is not None and pile.closed:
            self.refuse(f"Your {leaf_name(leaf_type)} pile is closed by a torii (RULES §4.2).")
            return
        chosen = [c for c in self.selected if CARD_TYPE[c] == leaf_type]
        top = max((CARD_VALUE[c] for c in chosen), default=None)
        if top is None:
            top = None if pile is None else CARD_VALUE[pile.cards[-1]]
        fits = [c for c in hand if CARD_TYPE[c] == leaf_type and c not in self.selected
                and (CARD_VALUE[c] == 0 if top is None else CARD_VALUE[c] - top in (0, 1))]
        if not fits:
            if chosen:
                self.selected = [c for c in self.selected if CARD_TYPE[c] != leaf_type]
                self._selection_changed()
                return
            where = (f"on your {leaf_name(leaf_type)} pile (top {top})" if pile
                     else f"to start a new {leaf_name(leaf_type)} pile (it needs a 0)")
            self.refuse(f"No card in your hand fits {where}.")
            return
        self.columns.clear()
        self.selected.append(fits[0])
        self.zone = "hand"
        self.cursor["hand"] = hand.index(self.selected[-1])
        self._selection_changed()

    def action_type(self, leaf_type: str) -> None:
        """A type letter: the display column of that type, or — while you
        build a play, or when there is no such column — your pile of it."""
        v = self.view()
        if v is None:
            return
        present = [t for t, _ in display_columns(v)]
        building = bool(self.selected) or self.pending is not None
        if not building and leaf_type in present and not (self.my_turn(v) and v.turn.main_done):
            self.action_column(leaf_type)
        elif leaf_type in v.types:
            self.action_pile(leaf_type)
        else:
            self.refuse(f"{leaf_name(leaf_type)} is not in play in this game.")

    def action_move(self, delta: int) -> None:
        """Move the cursor left or right in its zone."""
        v = self.view()
        if v is None:
            return
        n = len(display_columns(v)) if self.zone == "display" else len(self.hand(v))
        if n:
            self.cursor[self.zone] = (self.cursor[self.zone] + delta) % n
        self.refresh_table([])

    def action_zone(self, zone: str) -> None:
        """Move the cursor to the display (up) or the hand (down)."""
        self.zone = zone
        self.refresh_table([])

    def action_select(self) -> None:
        """Select what is under the cursor."""
        v = self.view()
        if v is None:
            return
        if self.zone == "display":
            cols = display_columns(v)
            if cols:
                self.action_column(cols[self.cursor["display"] % len(cols)][0])
        else:
            self.action_card(self.cursor["hand"])

    def action_back(self) -> None:
        """Step back: cancel a pending landscape or discard, else clear the selection."""
        if self.pending is not None:
            self.pending = None
            self.say("Cancelled.")
        elif self.columns or self.selected:
            self.columns.clear()
            self.selected.clear()
            self.say("")
        else:
            self.say("")
        self.ends = 0
        self.refresh_table([])

    def action_log_page(self, direction: int) -> None:
        """Scroll the move log by a page."""
        log = self.query_one(LogPanel)
        if direction < 0:
            log.scroll_page_up()
        else:
            log.scroll_page_down()

    # ------------------------------------------------------------ actions

    def action_confirm(self) -> None:
        """Do what the preview shows."""
        v = self.view()
        if v is None:
            return
        if self.pending is not None:
            if self.pending[0] == "discard":
                self._discard(v, end=bool(self.pending[1]))
            else:
                self._use_landscape(v, self.pending[1])
        elif self.columns:
            self.action_collect()
        elif self.selected:
            self.action_play()

    def _columns_wanted(self, v: engine.PlayerView) -> int:
        n = len(display_columns(v))
        return min(TEAHOUSE_COLUMNS, n) if v.turn.boost == "teahouse" else 1

    def action_collect(self) -> None:
        """Collect the selected column(s), or ask which (RULES §4.1)."""
        v = self.view()
        if v is None:
            return
        want = self._columns_wanted(v)
        if len(self.columns) == want:
            if self.send(Collect(self.momiji.seat, tuple(self.columns))):
                self.step_done()
            return
        columns = [t for t, _ in display_columns(v) if t not in self.columns]
        self._ask_columns(v, columns, want, list(self.columns))

    def _ask_columns(self, v: engine.PlayerView, columns: list[str], want: int, chosen: list[str]) -> None:
        if len(chosen) == want:
            if self.send(Collect(self.momiji.seat, tuple(chosen))):
                self.step_done()
            return
        cols = dict(display_columns(v))
        choices = []
        for t in columns:
            if t in chosen:
                continue
            label = Text(f"{leaf_name(t)}: ") + cards_text(cols[t])
            choices.append(Choice(t, label, t))
        title = "Collect which column?" if want == 1 else f"Tea House: column {len(chosen) + 1} of {want}"

        def done(value: object) -> None:
            if value is not None:
                self._ask_columns(v, columns, want, [*chosen, str(value)])

        self.app.push_screen(ChoiceScreen(title, choices), done)

    def action_reveal(self) -> None:
        """Pay 1 acorn to reveal 4 cards; then choose a column (RULES §4.1)."""
        if self.send(Reveal(self.momiji.seat)):
            self.step_done()
            self.zone = "display"
            self.say(f"Revealed up to {REVEAL_COUNT} cards: now collect a column (its letter, or c).")
            self.refresh_table([])

    def action_play(self) -> None:
        """Play the selected cards as the preview shows (RULES §4.2)."""
        v = self.view()
        if v is None:
            return
        if self.send(self._play_command(v)):
            self.step_done()

    def action_ends(self) -> None:
        """Choose other ends of the row for the new piles (RULES §4.2)."""
        self.ends += 1
        self.refresh_table([])

    def action_objective(self) -> None:
        """Activate a revealed objective (RULES §4.3)."""
        v = self.view()
        if v is None:
            return
        cost = self.cost(v)
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
                reason = f"owned by {'you' if owner == self.momiji.seat else v.seats[owner].name}"
            elif me.acorns < cost:
                reason = f"costs {cost}, you have {me.acorns}"
            out.append(Choice(str(i), objective_label(o), o, reason))
        return out

    def action_exchange(self) -> None:
        """Discard the 2 selected cards for 1 acorn (RULES §4.4)."""
        if self.send(Exchange(self.momiji.seat, (self.selected[0], self.selected[1]))):
            self.step_done()

    def action_discard(self) -> None:
        """Discard the selected cards down to the hand limit (RULES §5.1)."""
        v = self.view()
        if v is None:
            return
        if self.pending is None or self.pending[0] != "discard":
            self.pending = ("discard", "")
        if len(self.selected) == v.seats[self.momiji.seat].hand_size - HAND_LIMIT:
            self._discard(v, end=bool(self.pending[1]))
        else:
            self.refresh_table([])

    def _discard(self, v: engine.PlayerView, *, end: bool) -> None:
        if self.send(DiscardToLimit(self.momiji.seat, tuple(self.selected))):
            self.step_done()
            if end:
                self.send(EndTurn(self.momiji.seat))

    def action_end_turn(self) -> None:
        """End the turn (passing first if no main action is possible; asking
        for the discards when the hand is over the limit)."""
        v = self.view()
        if v is None:
            return
        app = self.momiji
        me = v.seats[app.seat]
        if not v.turn.main_done:
            legal = app.table.legal(app.seat) if app.table else []
            if any(isinstance(c, Pass) for c in legal):
                if not self.send(Pass(app.seat)):
                    return
                v = self.view() or v
            else:
                self.refuse("Take your main action first: collect, play or an objective (RULES §3).")
                return
        if me.hand_size > HAND_LIMIT:
            self.pending = ("discard", "end")
            self.selected.clear()
            self.zone = "hand"
            self.say("")
            self.refresh_table([])
            return
        if self.send(EndTurn(app.seat)):
            self.step_done()

    def action_undo(self) -> None:
        """Take back this turn's actions since the last hidden reveal."""
        undo = _undo_command()
        if undo is not None and self.send(undo(self.momiji.seat)):
            self.step_done()

    def action_landscape(self) -> None:
        """Use one of your landscapes' powers (RULES §1.5, §4.5)."""
        v = self.view()
        if v is None:
            return
        me = v.seats[self.momiji.seat]
        choices = []
        for i, lid in enumerate(me.panorama, 1):
            part, name, power = LANDSCAPES[lid]
            reason = None
            if lid in me.used:
                reason = "used"
            elif part == MIDDAY and v.turn.main_done:
                reason = "midday: before the main action only"
            elif lid == "moongate" and len(v.owners) >= len(v.objectives):
                reason = "every objective has an owner"
            elif lid == "moongate" and me.acorns < OBJECTIVE_COST + LANDSCAPE_COST:
                reason = f"needs {OBJECTIVE_COST + LANDSCAPE_COST} acorns"
            choices.append(Choice(str(i), f"{name} ({part}): {power}", lid, reason))
        self.app.push_screen(ChoiceScreen(f"Use which landscape? ({LANDSCAPE_COST} acorn)", choices),
                             lambda value: value is not None and self._start_landscape(v, str(value)))

    def _start_landscape(self, v: engine.PlayerView, lid: str) -> None:
        if lid in HAND_CARD_POWERS:
            self.pending = ("landscape", lid)
            self.columns.clear()
            self.zone = "hand"
            self.say("")
            self.refresh_table([])
            return
        self._use_landscape(v, lid)

    def _use_landscape(self, v: engine.PlayerView, lid: str) -> None:
        seat = self.momiji.seat
        name = LANDSCAPES[lid][1]
        hand_cards = tuple(self.selected) if lid in HAND_CARD_POWERS else ()

        def use(card: object = None, objective: object = None) -> None:
            command = UseLandscape(seat, lid, hand_cards=hand_cards,
                                   card=card if isinstance(card, int) else None,
                                   objective=str(objective) if objective is not None else None)
            if self.send(command):
                self.step_done()
                self.refresh_table([])

        if lid in HAND_CARD_POWERS and not hand_cards and lid != "fox":
            self.refuse(f"{name}: select the card{'s' if lid == 'koi' else ''} from your hand first.")
            return
        if lid in ("lantern", "bell", "terrace"):
            source = v.discard if lid == "terrace" else v.display
            if not source:
                self.refuse(f"{name}: the {'discard pile' if lid == 'terrace' else 'display'} is empty.")
                return
            unique = sorted(set(source), key=lambda c: (LEAF_TYPES.index(CARD_TYPE[c]), CARD_VALUE[c], c))
            choices = [Choice(HAND_KEYS[i] if i < 10 else "·", card_text(c), c) for i, c in enumerate(unique)]
            self.app.push_screen(ChoiceScreen(f"{name}: which card?", choices),
                                 lambda card: card is not None and use(card=card))
        elif lid == "moongate":
            choices = self._objective_choices(v, OBJECTIVE_COST)
            self.app.push_screen(ChoiceScreen(f"{name}: activate which objective?", choices),
                                 lambda o: o is not None and use(objective=o))
        else:
            use()

    def action_menu(self) -> None:
        """Leave the table for the menu; the game is saved as it stands."""
        self.momiji.close_table()
        self.app.pop_screen()
