"""The landscape draft (RULES §2.1): each round's offer, the picks so far,
every power's text; bots pick on their turn."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual import events
from textual.containers import VerticalScroll
from textual.widgets import Footer, Static

from ...engine import DraftPick
from ...engine.events import Event
from ...engine.rules_data import PARTS, landscape_cost_text
from ...engine.state import drafter
from ...session.deal_seed import commitment_line
from ..widgets.log_panel import LogPanel
from ..models.draft_text import offer_entries, panorama_entries, powers_note
from ..models.render import CLICK_META
from .sized import SizedScreen, SizeNotice


class DraftScreen(SizedScreen):
    """Pick one landscape per round with keys 1–5 (or a click)."""

    MIN_SIZE = (50, 16)
    BINDINGS = [
        *[Binding(str(i), f"pick({i})", f"Pick {i}", show=False, id=f"draft.pick{i}") for i in range(1, 6)],
        Binding("q", "menu", "Menu", id="draft.menu"),
    ]

    def compose(self) -> ComposeResult:
        yield SizeNotice()
        with VerticalScroll(id="draft"):  # at its smallest size the panoramas are below: ↓ or the wheel
            yield Static(id="draft-title", classes="title")
            yield Static(id="draft-offer")
            yield Static(id="draft-picks")
            yield Static(id="draft-message")
            yield LogPanel(id="log")
        yield Footer(compact=True)

    ready = False

    def on_mount(self) -> None:
        if self.app.return_code is not None:
            return  # opened as the app exits (the keys behind a quit): Textual composed no children
        self.ready = True
        app = self.momiji
        app.table_changed.subscribe(self, self.refresh_table)
        app.memory_changed.subscribe(self, self.reset_log)
        self.query_one(LogPanel).reset(app, commitment_line(app.table.seed_sha256) if app.table else "")
        self.fit_to_size()
        self.refresh_table([])

    def reset_log(self, memory: bool | None = None) -> None:
        """Redraw the whole log (memory mode changed)."""
        if self.ready:
            table = self.momiji.table
            self.query_one(LogPanel).reset(self.momiji, commitment_line(table.seed_sha256) if table else "")

    async def on_click(self, event: events.Click) -> None:
        """A click on an offered landscape picks it."""
        action = event.style.meta.get(CLICK_META) if event.style else None
        if action:
            event.stop()
            await self.run_action(action)

    def refresh_table(self, events: list[Event]) -> None:
        """Redraw from the player's view."""
        if not self.ready:
            return
        app = self.momiji
        if app.table is None:
            return
        if events:
            self.query_one(LogPanel).add(app, events)
        v = app.table.view(app.seat)
        if v.phase != "draft":
            return
        rnd, _ = drafter(len(v.seats), v.first_seat, v.draft_pick)
        part = PARTS[rnd]
        who = v.seats[v.current].name
        mine = v.current == app.seat
        if events and mine:
            self.query_one("#draft-message", Static).update("")
        title = Text(f"Landscape draft — round {rnd + 1} of 3: {part}. ", style="bold")
        title.append(f"Your pick: press 1–{len(v.draft_remaining)}." if mine
                     else f"{who} is choosing…", style="reverse" if mine else "italic")
        self.query_one("#draft-title", Static).update(title)
        takers = {lid: s.name for s in v.seats for lid in s.panorama}
        cost = landscape_cost_text(v.rules, v.draft_offers[rnd])  # the game's rules version (RULES §4.5)
        self.query_one("#draft-offer", Static).update(
            Group(*offer_entries(v.draft_offers[rnd], takers, mine=mine), Text(""), powers_note(part, cost)))
        self.query_one("#draft-picks", Static).update(Group(*panorama_entries(v, app.seat), Text("")))

    def action_pick(self, index: int) -> None:
        """Pick the offer's ``index``-th landscape (1-based)."""
        app = self.momiji
        if app.table is None:
            return
        v = app.table.view(app.seat)
        if v.current != app.seat:
            self.say(f"It is {v.seats[v.current].name}'s pick.")
            return
        if not 1 <= index <= len(v.draft_remaining):
            self.say(f"Choose 1 to {len(v.draft_remaining)}.")
            return
        error = app.submit(DraftPick(app.seat, v.draft_remaining[index - 1]))
        self.say(error or "")

    def say(self, text: str) -> None:
        """Show ``text`` in the message line ("" clears it), scrolled into
        view when the window is too short to show it under the panoramas."""
        message = self.query_one("#draft-message", Static)
        message.update(text)
        if text:
            message.scroll_visible(animate=False)

    def action_menu(self) -> None:
        """Back to the menu; the game is saved and can be continued."""
        self.momiji.close_table()
        self.app.pop_screen()
