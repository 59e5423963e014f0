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
  ``d`` discard, ``e`` end turn, ``u`` undo, ``m`` memory mode, ``q`` menu;
* ``i`` explains the card or column under the cursor, then (pressed again)
  each objective and each of your landscapes, in the message line; ``=``
  shows the live score's breakdown;
* ``t`` asks Hard for a hint: Hard thinks about the player's move in a
  worker (a thread; over SSH the app's ``advise`` sends it to the bot pool),
  "thinking…" shows and Esc cancels; then the message line shows the
  suggestion with its estimated win chance and the next two alternatives,
  the suggestion is loaded into the move being built and ⏎ plays it. The
  hint is recorded in the game log (``HintShown``) before it is shown.

The move being built is a ``MoveDraft`` (``ui/models/move_draft.py``, no
Textual); each region is its own widget (``ui/widgets/table_regions.py``)
fed a slice of the view. A game change (the app's ``table_changed``
signal) recomputes the view once and hands every region its slice; a key
press changes only the draft, so only the hand, display cursor, preview and
message can redraw. Keys that do not apply now are left out of the footer;
pressing one says why (the engine's reason). Commands go up through
``host(self).submit``.
"""

from __future__ import annotations

import threading
from functools import partial

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.worker import Worker, WorkerState

from ... import engine
from ...bots.advice import Advice
from ...engine import ActivateObjective, Command, EndTurn, Pass, PlayerView, Reveal, Undo
from ...engine import events as ev
from ...engine.rules_data import (
    CURRENT_RULES, HAND_LIMIT, LANDSCAPES, LEAF_TYPES, REVEAL_COUNT, landscape_cost_text,
)
from ...session.deal_seed import commitment_line
from ..models.hint import (
    CANCELLED, HINT_SEED, MOVED_ON, THINKING, hint_message, hint_refusal, load_suggestion, percent,
    suggestion_preview, suggestion_ready,
)
from ..models.host import GameHost, host
from ..models.info_text import info_items
from ..models.lesson_text import HIGHLIGHTABLE, highlighted, lesson_text, lesson_title
from ..models.rules_sections import cited_section
from ..models.settings import memory_note
from ..models.live_score import live_sheet
from ..models.lobby_text import watchers_line
from ..models.log_lines import log_line
from ..models.move_draft import (
    ALLOWED, GAME_ACTIONS, HAND_KEYS, QUICK, DiscardFlow, LandscapeFlow, MoveDraft, Zone, hand_order,
)
from ..models.move_flows import LOWER_CASE_COLUMNS
from ..models.render import CLICK_META, leaf_name
from ..models.table_choices import column_choices, landscape_choices, objective_choices, table_card_choices
from ..models.table_footer_text import FooterKey
from ..models.table_preview import column_keys, preview_text
from ..models.turn_news import NewsSlice, TurnNews, last_round_banner, seat_note
from ..models.table_text import (
    Layout, ObjectivesSlice, SeatSlice, YouSlice, display_slice, hand_slice, status_slice,
)
from ..widgets.size_notice import SizeNotice
from ..widgets.log_panel import LogPanel
from ..widgets.table_footer import TableFooter
from ..widgets.turn_news import NewsLine
from ..widgets.table_regions import (
    DisplayRegion, HandRegion, LessonPanel, MessageLine, ObjectivesRegion, Opponents, PreviewLine, Region,
    StatusLine, TableColumn, YouRegion,
)
from ...session.tutorial_table import TutorialTable
from .choice import ChoiceScreen
from .sized import SizedScreen
from .table_score import LiveScoreScreen

HINT_GROUP = "hint"
"""The worker group of the hint being thought."""

__all__ = ["HAND_KEYS", "TableScreen", "hand_order"]


class TableScreen(SizedScreen):
    """Where the game is played: the move being built, the keys' actions,
    the hint, and the regions drawn from the view."""

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
        Binding("t", "hint", "Hint", show=False, id="table.hint"),
        Binding("N,shift+n", "skip_step", "Do it for me", id="table.skip_step"),
        Binding("escape", "back", "Back", id="table.back"),
        Binding("question_mark,f1", "app.help", "Help", id="table.help"),
        Binding("q", "menu", "Menu", id="table.menu"),
        Binding("m", "app.toggle_memory", "Memory", show=False, id="table.memory"),
        Binding("i", "info", "Info", show=False, id="table.info"),
        Binding("equals_sign", "score", "Score", show=False, id="table.score"),
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
        self.draft = MoveDraft(0, key=self.key)
        self.message = Text("")
        self.message_is_error = False
        self.last_move = Text("")  # another seat's latest move, shown while it plays
        self.news = TurnNews(None, [])  # the other seats' turns since yours (the news line)
        self._footer_keys: tuple[bool | None, ...] = ()  # which game keys apply now
        # The footer's keys for each ``_footer_keys`` seen (until the bindings change).
        self._footer_cache: dict[tuple[bool | None, ...], tuple[tuple[FooterKey, ...], FooterKey | None]] = {}
        self._seen_events: list[list[ev.Event]] = []  # the last lists of new events drawn
        self._view_of: tuple[object, object] = (None, None)  # the table and state the move builder's
        # view is of (every change of a table replaces its state, session/table.py)
        self.ready = False
        self._watchers: tuple[str, ...] = ()  # who watches, as the opponents' border title says
        self._message_drawn = False  # the message widget shows self.message
        self.footer: TableFooter | None = None  # the screen's footer, once composed
        self.suggestion: Command | None = None  # the hint's command, while the draft holds it
        self._hint_stop: threading.Event | None = None  # set to cancel the hint being thought
        self._hint_worker: Worker[Advice] | None = None
        self._hint_events = 0  # the game's length when the hint was asked
        # The last hint shown and the game's length after it was recorded: the
        # same position asked again shows it again, counted once.
        self._last_hint: tuple[int, Advice] | None = None

    def compose(self) -> ComposeResult:
        table = host(self).table
        others = len(table.seats) - 1 if table is not None else 0
        yield SizeNotice(id="size-notice")
        with TableColumn(id="table-body"):
            with TableColumn(id="table"):
                yield StatusLine(id="status")
                yield DisplayRegion(id="display")
                yield ObjectivesRegion(id="objectives")
                yield Opponents(others, id="opponents")
                yield TableColumn(id="spacer")
                yield YouRegion(id="you")
                yield HandRegion(id="hand")
                yield NewsLine(id="news")
                yield MessageLine(id="message")
                yield PreviewLine(id="preview")
            if isinstance(table, TutorialTable):  # the guided first game: its step where the log was
                self.add_class("-lesson")
                yield LessonPanel(id="lesson")
            yield LogPanel(id="log")
        self.footer = TableFooter()
        yield self.footer

    # ------------------------------------------------- the move being built

    @property
    def selected(self) -> list[int]:
        """The hand cards selected, in the order chosen."""
        return self.draft.selected

    @property
    def columns(self) -> list[str]:
        """The display columns chosen for a collect."""
        return self.draft.columns

    @property
    def pending(self) -> tuple[str, str] | None:
        """The flow being built, as a pair: ``("landscape", id)`` or
        ``("discard", "end" | "")``; None when none is."""
        flow = self.draft.flow
        if isinstance(flow, LandscapeFlow):
            return ("landscape", flow.landscape)
        if isinstance(flow, DiscardFlow):
            return ("discard", "end" if flow.then_end else "")
        return None

    def key(self, binding_id: str) -> str:
        """The key shown for a binding (the user's key map applied)."""
        return host(self).key_for(binding_id)

    def say(self, text: str | Text, *, error: bool = False) -> None:
        """Show a message above the preview (a refusal is styled as an error)."""
        message = text if isinstance(text, Text) else Text(text)
        is_error = error and bool(message.plain)
        unchanged = (message.plain, is_error) == (self.message.plain, self.message_is_error) \
            and message.spans == self.message.spans and message.style == self.message.style
        self.message, self.message_is_error = message, is_error
        if self.ready and not (unchanged and self._message_drawn):
            self._message_drawn = True
            widget = self.query_one(MessageLine)
            widget.data = self.message
            widget.set_class(self.message_is_error, "-error")

    def refuse(self, text: str) -> None:
        """Explain a refusal (nothing changed), unless the preview line shows
        the same reason already (one illegal play is told once)."""
        preview = self.query_one(PreviewLine).data if self.ready else None
        if text and isinstance(preview, Text) and text in preview.plain:
            self.say("")
            return
        self.say(Text("✗ " + text), error=True)

    def send(self, command: Command) -> bool:
        """Submit; on refusal explain why. Returns True when accepted."""
        error = host(self).submit(command)
        if error:
            self.refuse(error)
            return False
        self.take_view()  # a key typed ahead acts on this move's table (drawn on TableChanged)
        self.say("")
        return True

    def send_done(self, command: Command) -> bool:
        """Submit; when accepted forget the selection. Nothing is drawn here:
        the accepted command's table change (``refresh_table``) draws the new
        view once, with the selection gone (drawing the old view first would
        render the hand twice)."""
        if self.send(command):
            self.draft.done()
            return True
        return False

    # ------------------------------------------------------------- footer

    def why_not(self, action: str) -> str | None:
        """Why ``action`` cannot be taken now (None when it can): the move
        builder's reason, which is the engine's for every rule; ⏎ applies
        while the move being built is the hint's suggestion."""
        if action == "confirm" and suggestion_ready(self.draft, self.suggestion):
            return None
        return self.draft.reason(action)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show only the keys that apply now (RULES §3 timing). The keys that
        depend only on the view (``ALLOWED``) or on the selection (``QUICK``)
        are answered by the move builder from the legal commands, not
        through ``why_not``: a screen that refuses one of them for its own
        reason overrides this too (⏎ goes through ``why_not``: the hint's
        screen takes it for its suggestion)."""
        if self.too_small:
            return action in ("menu",)
        if action == "skip_step":
            table = host(self).table
            return isinstance(table, TutorialTable) and self.draft.my_turn and not table.finished
        if action == "back":
            return bool(self.draft.selected or self.draft.columns or self.draft.flow or self.message.plain)
        if action in GAME_ACTIONS:  # the reason is worked out only for a key pressed (``on_key``)
            return self.draft.allows(action) if action in ALLOWED or action in QUICK else \
                self.why_not(action) is None
        return True

    def update_footer(self, *, bindings_changed: bool = False) -> None:
        """Hand the footer the keys that apply now (each action once, the
        key map's key for it); it repaints its line only if they changed.

        The keys are computed once per set of the game keys that apply
        (``_footer_keys``) and kept; ``bindings_changed`` (a key map, the
        screen too small) forgets them."""
        footer = self.footer
        if footer is None:
            return
        if bindings_changed:
            self._footer_cache.clear()
        cached = self._footer_cache.get(self._footer_keys)
        if cached is None:
            cached = self._footer_cache[self._footer_keys] = self._footer_items()
        footer.keys, footer.palette = cached

    def _footer_items(self) -> tuple[tuple[FooterKey, ...], FooterKey | None]:
        """The footer's keys and the palette's key, from the active bindings."""
        keys: list[FooterKey] = []
        palette: FooterKey | None = None
        seen: set[str] = set()
        for key, (node, binding, enabled, _tip) in self.active_bindings.items():
            is_palette = key == self.app.COMMAND_PALETTE_BINDING and self.app.ENABLE_COMMAND_PALETTE
            action = binding.action if node is self or "." in binding.action else f"app.{binding.action}"
            if not (is_palette or (binding.show and action not in seen)):
                continue
            label = self.key(binding.id) if binding.id else self.app.get_key_display(binding)
            if is_palette:
                palette = FooterKey(label, binding.description, action, enabled)
            else:
                seen.add(action)
                keys.append(FooterKey(label, binding.description, action, enabled))
        return tuple(keys), palette

    def on_key(self, event: events.Key) -> None:
        """A key whose action does not apply now: say why; a key that is
        taken clears a refusal still shown (it was about an earlier key).

        The check waits until the keys queued before this one are handled
        (keys typed fast all arrive before the first one's binding runs), so
        it sees the table as this key's binding will; it never stops a key."""
        if self.too_small:
            return
        try:
            chain = self._modal_binding_chain
        except Exception:  # pragma: no cover - Textual internals
            return
        bound = False
        for namespace, bindings in chain:
            found = bindings.key_to_bindings.get(event.key, [])
            bound = bound or bool(found)
            if namespace is not self:
                continue
            for binding in found:
                name = binding.action.split("(")[0]
                if name in GAME_ACTIONS:
                    self.app.call_next(self._explain_refusal, name)
                    return
            if found:  # a key of this screen that is taken: a refusal shown is about an older key
                self.app.call_next(self._explain_refusal, "")
        if not bound and event.key in LOWER_CASE_COLUMNS:  # a free lower-case leaf letter: as its capital
            event.stop()
            self.app.call_next(self._type_as_capital, event.key.upper())

    def _still_shown(self) -> bool:
        """Whether a call queued behind keys may still act: not once the app
        exits (the keys behind a quit) or another screen is on top."""
        return self.app.return_code is None and self.is_active

    async def _type_as_capital(self, letter: str) -> None:
        if self._still_shown():
            await self.run_action(f"type('{letter}')")

    def _explain_refusal(self, action: str) -> None:
        """Say why ``action`` (a game action; "" for any other) is refused,
        else clear a refusal still shown: it was about an earlier key."""
        if not self._still_shown():
            return
        reason = self.why_not(action) if action else None
        if reason and self.is_mounted:
            self.refuse(reason)
        elif self.message_is_error and self.is_mounted:
            self.say("")

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

    def _changed(self, refusal: str | None, *, clear: bool = True) -> None:
        """After a selection key: say why not, or clear the message; redraw."""
        if refusal:
            self.refuse(refusal)
            return
        if clear:
            self.say("")
        self.redraw_move()

    def action_card(self, index: int) -> None:
        """Select or unselect the hand card at ``index`` (0-based)."""
        self._changed(self.draft.toggle_card(index))

    def action_column(self, leaf_type: str) -> None:
        """Select or unselect a display column for a collect (RULES §4.1)."""
        self._changed(self.draft.toggle_column(leaf_type))

    def action_column_click(self, leaf_type: str) -> None:
        """A click on a column selects it; on the selected column it collects."""
        d = self.draft
        if leaf_type in d.columns and len(d.columns) == d.columns_wanted:
            reason = d.reason("collect")
            if reason:
                self.refuse(reason)
            else:
                self.action_collect()
            return
        self.action_column(leaf_type)

    def action_pile(self, leaf_type: str) -> None:
        """A pile's key: add the hand card that fits on that pile (or starts it)."""
        self._changed(self.draft.add_for_pile(leaf_type))

    def action_type(self, leaf_type: str) -> None:
        """A type letter: the display column of that type, or your pile of it."""
        meaning = self.draft.type_key(leaf_type)
        if meaning == "column":
            self.action_column(leaf_type)
        elif meaning == "pile":
            self.action_pile(leaf_type)
        else:
            self.refuse(meaning)

    def action_move(self, delta: int) -> None:
        """Move the cursor left or right in its zone."""
        self.draft.move(delta)
        self.redraw_move()

    def action_zone(self, zone: str) -> None:
        """Move the cursor to the display (up) or the hand (down)."""
        self.draft.zone = Zone(zone)
        self.redraw_move()

    def action_select(self) -> None:
        """Select what is under the cursor."""
        under = self.draft.under_cursor()
        if under is not None and under[0] is Zone.DISPLAY:
            self.action_column(str(under[1]))
        elif under is not None:
            self.action_card(int(under[1]))

    def action_log_page(self, direction: int) -> None:
        """Scroll the move log by a page."""
        log = self.query_one(LogPanel)
        if direction < 0:
            log.scroll_page_up()
        else:
            log.scroll_page_down()

    # ------------------------------------------------------------ actions

    def confirm_preview(self) -> None:
        """Do what the preview shows."""
        flow = self.draft.flow
        if isinstance(flow, DiscardFlow):
            self._discard(end=flow.then_end)
        elif isinstance(flow, LandscapeFlow):
            self._use_landscape(flow.landscape)
        elif self.draft.columns:
            self.action_collect()
        elif self.draft.selected:
            self.action_play()

    def action_collect(self) -> None:
        """Collect the selected column(s), or ask which (RULES §4.1)."""
        self._ask_columns(list(self.draft.columns))

    def _ask_columns(self, chosen: list[str]) -> None:
        d = self.draft
        want = d.columns_wanted
        if len(chosen) == want:
            d.columns = chosen
            self.send_done(d.collect_command())
            return
        title = "Collect which column?" if want == 1 else f"Tea House: column {len(chosen) + 1} of {want}"
        choices = column_choices(d.view, chosen) if d.view is not None else []

        def done(value: object) -> None:
            if value is not None:
                self._ask_columns([*chosen, str(value)])

        self.app.push_screen(ChoiceScreen(title, choices), done)

    def action_reveal(self) -> None:
        """Pay 1 acorn to reveal 4 cards; then choose a column (RULES §4.1)."""
        if self.send_done(Reveal(host(self).seat)):
            self.draft.zone = Zone.DISPLAY
            self.say(f"Revealed up to {REVEAL_COUNT} cards: now collect a column "
                     f"({column_keys(self.draft.present)}, or {self.key('table.collect')}).")
            self.redraw_move()

    def action_play(self) -> None:
        """Play the selected cards as the preview shows (RULES §4.2)."""
        self.send_done(self.draft.play_command())

    def action_ends(self) -> None:
        """Choose other ends of the row for the new piles (RULES §4.2)."""
        self.draft.ends += 1
        self.redraw_move()

    def action_objective(self) -> None:
        """Activate a revealed objective (RULES §4.3)."""
        d = self.draft
        title = f"Activate which objective? ({d.objective_cost} acorns)"
        self.app.push_screen(ChoiceScreen(title, objective_choices(d)), self._objective)

    def _objective(self, objective: object) -> None:
        if objective is not None:
            self.send_done(ActivateObjective(host(self).seat, str(objective)))

    def action_exchange(self) -> None:
        """Discard the 2 selected cards for 1 acorn (RULES §4.4)."""
        command = self.draft.exchange_command()
        if command is not None:
            self.send_done(command)

    def action_discard(self) -> None:
        """Discard the selected cards down to the hand limit (RULES §5.1)."""
        d = self.draft
        d.start_discard(then_end=False)
        me = d.view.me if d.view is not None else None
        if me is not None and len(d.selected) == me.hand_size - HAND_LIMIT:
            self._discard(end=isinstance(d.flow, DiscardFlow) and d.flow.then_end)
        else:
            self.redraw_move()

    def _discard(self, *, end: bool) -> None:
        if self.send_done(self.draft.discard_command()) and end:
            self.send(EndTurn(host(self).seat))

    def action_end_turn(self) -> None:
        """End the turn (passing first if no main action is possible; asking
        for the discards when the hand is over the limit)."""
        d, seat = self.draft, host(self).seat
        v: PlayerView | None = d.view
        if v is None or v.me is None:
            return
        if not v.turn.main_done:
            if not d.can(Pass):
                self.refuse(d.reason("end_turn") or "")
                return
            if not self.send(Pass(seat)):
                return
        if v.me.hand_size > HAND_LIMIT and not v.turn.limit_discarded:
            d.start_discard(then_end=True)
            self.say("")
            self.redraw_move()
            return
        self.send_done(EndTurn(seat))

    def action_undo(self) -> None:
        """Take back this turn's actions since the last hidden reveal."""
        self.send_done(Undo(host(self).seat))

    def action_landscape(self) -> None:
        """Use one of your landscapes' powers (RULES §1.5, §4.5)."""
        v = self.draft.view  # the costs of the game's rules version (RULES §4.5)
        cost = landscape_cost_text(v.rules, v.me.panorama) if v and v.me else landscape_cost_text(CURRENT_RULES, ())
        self.app.push_screen(ChoiceScreen(f"Use which landscape? ({cost})",
                                          landscape_choices(self.draft)),
                             self._start_landscape)

    def _start_landscape(self, value: object) -> None:
        if value is None:
            return
        landscape = str(value)
        if self.draft.start_landscape(landscape):
            self.say("")
            self.redraw_move()
        else:
            self._use_landscape(landscape)

    def _use_landscape(self, landscape: str) -> None:
        d = self.draft
        flow = LandscapeFlow(landscape).power
        if flow.needs_hand and not d.selected:
            reason = d.reason("confirm") if d.flow is not None else None
            self.refuse(reason or "Select the cards for this power first.")
            return

        def use(card: object = None, objective: object = None) -> None:
            self.send_done(d.landscape_command(landscape, card=card if isinstance(card, int) else None,
                                               objective=str(objective) if objective is not None else None))

        def use_card(card: object) -> None:
            if card is not None:
                use(card=card)

        def use_objective(objective: object) -> None:
            if objective is not None:
                use(objective=objective)

        if flow.table_card is not None and d.view is not None:
            choices = table_card_choices(d.view, flow.table_card)
            if not choices:
                self.refuse(d.landscape_reason(landscape) or f"The {flow.table_card} is empty.")
                return
            self.app.push_screen(ChoiceScreen(f"{LANDSCAPES[landscape][1]}: which card?", choices),
                                 use_card)
        elif flow.objective:
            self.app.push_screen(ChoiceScreen(f"{LANDSCAPES[landscape][1]}: activate which objective?",
                                              objective_choices(d, moongate=True)),
                                 use_objective)
        else:
            use()

    def action_menu(self) -> None:
        """Leave the table for the menu; the game is saved as it stands."""
        host(self).close_table()
        self.app.pop_screen()

    # ------------------------------------------------------------- hint


    @property
    def hint_thinking(self) -> bool:
        """True while Hard thinks about a hint."""
        return self._hint_stop is not None

    def action_hint(self) -> None:
        """Ask Hard for a hint from this seat's own view (RULES §8)."""
        app = host(self)
        table = app.table
        view = table.view(app.seat) if table is not None else None
        reason = hint_refusal(view, app.seat, allowed=app.hints_allowed())
        if reason:
            self.refuse(reason)
            return
        if self.hint_thinking or table is None or view is None:
            return
        last = self._last_hint
        if last is not None and last[0] == len(table.events):
            self.show_hint(last[1])
            return
        stop = threading.Event()
        self._hint_stop = stop
        self._hint_events = len(table.events)
        self.say(THINKING)
        self._hint_worker = self.run_worker(
            partial(app.advise, view, seed=HINT_SEED, should_stop=stop.is_set),
            thread=True, group=HINT_GROUP, name="hint", exit_on_error=False)

    def cancel_hint(self) -> bool:
        """Stop the hint being thought (nothing is shown or recorded); True if one was."""
        stop, worker = self._hint_stop, self._hint_worker
        if stop is None:
            return False
        stop.set()
        if worker is not None:
            worker.cancel()
        self._hint_stop = self._hint_worker = None
        return True

    def on_screen_suspend(self) -> None:
        """Another screen opened over the table (a panel, help, the palette):
        the hint being thought is dropped, never recorded unseen (recording
        changes the game, which would close that screen)."""
        self.cancel_hint()

    def action_back(self) -> None:
        """Esc: cancel the hint being thought, else step back as usual."""
        if self.cancel_hint():
            self.say(CANCELLED)
            return
        self.suggestion = None
        self.say(self.draft.back())
        self.redraw_move()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group != HINT_GROUP or event.worker is not self._hint_worker:
            return
        if event.state not in (WorkerState.SUCCESS, WorkerState.ERROR):
            return
        self._hint_stop = self._hint_worker = None
        if event.state == WorkerState.ERROR:
            self.refuse(f"Hard could not think of a hint: {event.worker.error}")
            return
        advice = event.worker.result
        app = host(self)
        table = app.table
        if advice is None or not advice.choices or table is None or len(table.events) != self._hint_events:
            self.refuse(MOVED_ON)
            return
        error = app.record_hint(app.seat, percent(advice.best))
        if error:
            self.refuse(error)
            return
        self._last_hint = (len(table.events), advice)
        self.show_hint(advice)

    def show_hint(self, advice: Advice) -> None:
        """Load the suggestion into the move being built and say it."""
        self.suggestion = advice.best.command
        load_suggestion(self.draft, advice.best.command)
        self.say(hint_message(advice, self.key("table.confirm")))
        self.redraw_move()

    def action_confirm(self) -> None:
        """⏎: play the hint's suggestion as loaded, else what the preview shows."""
        command = self.suggestion
        if command is not None and suggestion_ready(self.draft, command):
            self.suggestion = None
            self.send_done(command)
            return
        self.suggestion = None
        self.confirm_preview()

    # ------------------------------------------------------------ drawing

    def on_mount(self) -> None:
        if self.app.return_code is not None:
            return  # opened as the app exits (the keys behind a quit): Textual composed no children
        self.ready = True
        self.reset_log()
        host(self).table_changed.subscribe(self, self.refresh_table)
        host(self).memory_changed.subscribe(self, self.memory_toggled)
        # The keys offered changed (too small, a key map): redraw the footer's line.
        self.bindings_updated_signal.subscribe(self, lambda _screen: self.update_footer(bindings_changed=True))
        self.fit_to_size()
        self.refresh_table([])

    def release_lines(self) -> None:
        """Every region gives back the lines it kept for a longer text."""
        for region in self.query(Region):
            region.release()

    def fit_to_size(self) -> None:
        """Also give back the lines regions kept: the window changed, or
        this screen is back from one over it."""
        super().fit_to_size()
        if self.ready:
            self.release_lines()

    def size_changed(self) -> None:
        super().size_changed()
        if self.ready:
            self.refresh_table([])

    def on_resize(self, event: events.Resize) -> None:
        if self.ready:
            self.refresh_table([])

    def memory_toggled(self, on: bool) -> None:
        """Memory mode changed (RULES §8): say so on the message line; in
        Learn to play, with the lesson's "try …" (the key was not a move)."""
        note = memory_note(on, self.key("table.memory"))
        table = host(self).table
        lesson = table.try_text() if isinstance(table, TutorialTable) else ""
        self.say(f"{note} Lesson: {lesson}." if lesson else note)

    def reset_log(self) -> None:
        """Redraw the whole log and the turn summaries (memory mode changed)."""
        if self.ready:
            app = host(self)
            preface = commitment_line(app.table.seed_sha256) if app.table is not None else ""
            self.query_one(LogPanel).reset(app, preface)
            if app.table is not None:
                self.news = TurnNews(app.seat, [s.name for s in app.table.seats], memory=app.memory_mode)
                self.news.feed(app.table.events)

    def table_layout(self) -> Layout:
        """The window's size for the renderers."""
        w, h = self.app.size
        return Layout(w, h, self.query_one("#table").size.width or w)

    def take_view(self) -> PlayerView | None:
        """Hand the move builder the seat's view of the open table and its
        legal commands now; returns the view (None: no table, nothing
        changed). Called after an accepted command too, so the keys queued
        behind it (typed before the screen changed) act on the table it
        made, in order (the view of a state is taken once)."""
        app = host(self)
        table = app.table
        if table is None:
            return None
        seen_table, seen_state = self._view_of
        if seen_table is table and seen_state is table.state and self.draft.seat == app.seat \
                and self.draft.view is not None:
            return self.draft.view
        self._view_of = (table, table.state)
        v = table.view(app.seat)
        self.draft.seat = app.seat
        self.draft.check = table.check
        self.draft.set_view(v, table.legal(app.seat))
        return v

    def refresh_table(self, events: list[ev.Event]) -> None:
        """A change of the game (new ``events``; [] to redraw): one fresh view,
        every region handed its slice (unchanged slices are not redrawn)."""
        if not self.ready or any(events is seen for seen in self._seen_events):
            return  # the same events come by the signal and by the app's direct call
        if events:
            self._seen_events = [*self._seen_events[-7:], events]
        app = host(self)
        table = app.table
        v = self.take_view()
        if table is None or v is None:
            return
        if events:
            self._note_events(app, events)
        layout = self.table_layout()
        thinking = v.seats[app.thinking].name if app.thinking is not None else None
        self.query_one(StatusLine).data = status_slice(v, app.seat, app.memory_mode, thinking)
        self.show_watchers(app.watchers())
        my_turn = self.draft.my_turn
        width = layout.table_width - 2  # inside the table's padding
        self.query_one(ObjectivesRegion).data = ObjectivesSlice(
            v, self.draft.objective_cost, v.turn.boost == "pagoda" and my_turn, layout.width < 150, layout.tall,
            width)
        sheet = live_sheet(v)  # the live score (RULES §7)
        rows = []
        for i, seat in enumerate(v.seats):
            if i != app.seat:
                level = table.seats[i].level if i < len(table.seats) else None
                control = v.seat_control[i] if i < len(v.seat_control) else None
                level = seat_note(seat.name, level, control)
                rows.append(SeatSlice(seat, v.current == i, level, app.memory_mode, layout.tall and layout.big,
                                      width, sheet.seats[i].total, i in sheet.winners))
        self.query_one(Opponents).set_rows(rows)
        self.query_one(YouRegion).data = YouSlice(v.seats[app.seat], v.current == app.seat, app.memory_mode,
                                                  layout, sheet.seats[app.seat].total, app.seat in sheet.winners)
        self.query_one(NewsLine).data = self.news_slice(v, layout)
        if isinstance(table, TutorialTable):
            self.show_lesson(table)
        self.say(self.message, error=self.message_is_error)
        self.redraw_move()
        if any(isinstance(e, ev.TurnEnded) for e in events):
            self.release_lines()  # a new turn: regions take the lines they need

    def show_watchers(self, names: tuple[str, ...]) -> None:
        """Tell the players who watches: the title of the line above the
        other seats' rows (no line more: the table's layout stays as it is);
        none while nobody watches."""
        if names != self._watchers:
            self._watchers = names
            self.query_one(Opponents).border_title = watchers_line(names) if names else None

    def show_lesson(self, table: TutorialTable) -> None:
        """The tutorial's step in its panel; the regions it talks about
        marked (``-lesson-focus``, styled in momiji.tcss)."""
        lesson = table.lesson()
        panel = self.query_one(LessonPanel)
        panel.border_title = lesson_title(lesson, self.key("table.skip_step"), self.key("table.menu"),
                                          max(panel.size.width - 2, 0))  # inside the border's corners
        panel.data = lesson_text(lesson)
        focus = highlighted(lesson)
        for region in HIGHLIGHTABLE:
            self.query_one(f"#{region}").set_class(region in focus, "-lesson-focus")

    def cited_rules(self) -> str | None:
        """The section F2 opens (``screens.rules.cited_on``): the one the
        message line cites, else, in Learn to play, the step's first."""
        said = cited_section(self.message.plain)
        if said is None and self.has_class("-lesson"):
            said = cited_section(self.query_one(LessonPanel).content.plain)
        return said

    def action_skip_step(self) -> None:
        """Tutorial: play the rest of this step for the player and go on."""
        self.draft.done()
        error = host(self).skip_step()
        if error:
            self.refuse(error)
        else:
            self.say("")

    def news_slice(self, v: engine.PlayerView, layout: Layout) -> NewsSlice:
        """The banner and the other seats' turns since yours: one line in a
        short window, one per other seat in a tall one (plus the banner)."""
        banner = last_round_banner(v)
        lines = (len(v.seats) - 1 if layout.tall else 1) + (banner is not None)
        return NewsSlice(banner, tuple(self.news.summaries), lines, others=len(v.seats) - 1)

    def _note_events(self, app: GameHost, events: list[ev.Event]) -> None:
        """Log the new events; remember another seat's move for the preview."""
        self.query_one(LogPanel).add(app, events)
        self.news.feed(events)
        names = [seat.name for seat in app.table.seats] if app.table else []
        lines = []
        for event in events:
            seat = ev.event_seat(event)
            if seat is not None and seat != app.seat and not isinstance(event, ev.TurnEnded):
                line = log_line(event, app.seat, names, memory=app.memory_mode)
                if line is not None:
                    lines.append(line)
        if lines:
            self.last_move = Text(" ").join(lines)
        if any(isinstance(e, ev.TurnEnded) for e in events):
            self.message = Text("")  # a new turn: old messages are stale
            self.say(self.message)

    def redraw_move(self) -> None:
        """Redraw what the move being built shows: hand, display, preview, footer."""
        v = self.draft.view
        if not self.ready or v is None:
            return
        layout = self.table_layout()
        self.query_one(HandRegion).data = hand_slice(self.draft, self.key, layout.big, layout.table_width - 2)
        self.query_one(DisplayRegion).data = display_slice(self.draft, v, layout.big)
        hinted = suggestion_preview(self.draft, self.suggestion, self.key("table.confirm"))
        self.query_one(PreviewLine).data = hinted or preview_text(self.draft, self.key, self.last_move)
        # The footer's line is redrawn only when the keys that apply change.
        keys = tuple(self.check_action(a, ()) for a in sorted(GAME_ACTIONS | {"back"}))
        if keys != self._footer_keys:
            self._footer_keys = keys
            self.update_footer()

    # ------------------------------------------------ info and live score

    def action_info(self) -> None:
        """Explain the next thing in the message line: the card or column
        under the cursor, then each objective, then each landscape."""
        v = self.draft.view
        if v is None:
            return
        under = self.draft.under_cursor() if self.draft.my_turn else None
        card = column = None
        if under is not None and isinstance(under[1], int) and under[1] < len(self.draft.hand):
            card = self.draft.hand[under[1]]
        elif under is not None and isinstance(under[1], str):
            column = under[1]
        items = info_items(v, card, column)
        shown = self.message.plain
        at = next((i for i, item in enumerate(items) if item.plain == shown), -1)
        self.say(items[(at + 1) % len(items)])

    def action_score(self) -> None:
        """Show the live score's breakdown (RULES §7) over the table."""
        table = host(self).table
        if table is not None:
            self.app.push_screen(LiveScoreScreen(table.view(host(self).seat)))
