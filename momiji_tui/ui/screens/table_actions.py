"""The table's actions: one method per key (``action_*``), each changing
the move being built (``MoveDraft``) or sending its command up to the host,
and the choosers they open (``table_choices``)."""

from __future__ import annotations

from ...engine import ActivateObjective, EndTurn, Pass, PlayerView, Reveal, Undo
from ...engine.rules_data import CURRENT_RULES, HAND_LIMIT, LANDSCAPES, REVEAL_COUNT, landscape_cost_text
from .choice import ChoiceScreen
from ..models.host import host
from ..models.move_draft import DiscardFlow, LandscapeFlow, Zone
from ..widgets.log_panel import LogPanel
from .table_base import TableBase
from ..models.table_preview import column_keys
from ..models.table_choices import column_choices, landscape_choices, objective_choices, table_card_choices


class TableActions(TableBase):
    """The table screen's key actions."""

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

    def action_back(self) -> None:
        """Step back: cancel the flow being built, else clear the selection."""
        self.say(self.draft.back())
        self.redraw_move()

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

