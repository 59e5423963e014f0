"""The replay screen: a saved game, step by step, as the table looked then.

Read-only (it never opens the save for writing). ←/→ step one event,
shift+←/→ or ``[``/``]`` one turn, Home/End jump to the start or the end; the
turn slider moves with them (and follows a mouse click). ``v`` switches whose
seat the table is seen from: an unfinished game shows only what that seat
could know (RULES §8); a finished one shows every hand, and its end-scoring
sheet at the last position. Opened as a *watch* (``momiji replay --watch``)
it shows only the spectator's view, finished or not: what every seat saw
(RULES §8), no hand and no deal until the game's end, where every hand is
shown as it was to the players; ``v`` does not change it.
"""

from __future__ import annotations

import os
from pathlib import Path

from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from ... import engine
from ...engine import events as ev
from ...engine.narrate import narrate
from ...engine.rules_data import OBJECTIVE_NAMES
from ...session.replay import Replay
from ...session.saves import open_saved, seat_label
from ...store.errors import StoreError
from ..models.score_sheet import score_table, winner_sentence
from ..models.render import card_text, display_text, panorama_text, row_text
from ..widgets.turn_slider import TurnSlider


class ReplayScreen(Screen[None]):
    """Step through a saved game (never changes the file)."""

    DEFAULT_CSS = """
    ReplayScreen #replay { padding: 0 1; }
    ReplayScreen #replay-title { text-style: bold; }
    ReplayScreen #replay-slider-row { height: 1; margin: 0 0 1 0; }
    ReplayScreen #replay-event { height: auto; min-height: 2; color: $text; text-style: italic; }
    ReplayScreen #replay-body { height: 1fr; }
    ReplayScreen #replay-sheet { height: auto; margin: 1 0 0 0; }
    """

    BINDINGS = [
        Binding("left", "step(-1)", "Event", key_display="←", id="replay.prev_event"),
        Binding("right", "step(1)", "Event", key_display="→", id="replay.next_event"),
        Binding("shift+left,left_square_bracket", "turn(-1)", "Turn", key_display="[", id="replay.prev_turn"),
        Binding("shift+right,right_square_bracket", "turn(1)", "Turn", key_display="]", id="replay.next_turn"),
        Binding("home", "start", "Start", id="replay.start"),
        Binding("end", "end", "End", id="replay.end"),
        Binding("v", "seat", "Seat", id="replay.seat"),
        Binding("escape,q", "back", "Back", id="replay.back"),
        Binding("up", "scroll(-1)", "Scroll up", show=False, id="replay.scroll_up"),
        Binding("down", "scroll(1)", "Scroll down", show=False, id="replay.scroll_down"),
        Binding("h", "step(-1)", "Event", show=False, id="replay.prev_event_vim"),
        Binding("l", "step(1)", "Event", show=False, id="replay.next_event_vim"),
    ]

    def __init__(self, path: str | os.PathLike[str], *, watch: bool = False) -> None:
        super().__init__()
        self.path = Path(path)
        self.watch_only = watch  # the spectator's view only (see the module's docstring)
        self.replay: Replay | None = None
        self.problem: str | None = None
        self.seat: int | None = 0
        self.humans: list[int] = []
        self._last_round: int | None = None
        self.seat_labels: list[str] = []
        try:
            loaded = open_saved(self.path)
            self.replay = Replay.from_dicts(loaded.events, open_hands=False if watch else None)
            self.game_id = str(loaded.header.get("game_id", self.path.stem))
            self.humans = [i for i, s in enumerate(loaded.header.get("seats", []))
                           if isinstance(s, dict) and s.get("kind") == "human"]
            self.seat_labels = [seat_label(s) for s in loaded.header.get("seats", [])]  # with bots' levels
            self.seat = self.humans[0] if self.humans and not watch else None
        except (StoreError, OSError, ValueError) as exc:
            self.problem = f"Cannot replay {self.path.name}: {exc}"
            self.game_id = self.path.stem

    def compose(self) -> ComposeResult:
        with Vertical(id="replay"):
            yield Static(id="replay-title")
            with Vertical(id="replay-slider-row"):
                yield TurnSlider(id="replay-slider")
            yield Static(id="replay-event")
            with VerticalScroll(id="replay-body", can_focus=False):  # the arrows step the replay
                yield Static(id="replay-table")
                yield Static(id="replay-sheet")
        yield Footer(compact=True, show_command_palette=False)  # every key fits in 80 columns

    def on_mount(self) -> None:
        if self.replay is not None:
            slider = self.query_one(TurnSlider)
            slider.maximum = self.replay.turn_count - 1
        self.refresh_replay()

    # ------------------------------------------------------------- drawing

    def refresh_replay(self) -> None:
        """Redraw everything for the current position and seat."""
        title = self.query_one("#replay-title", Static)
        if self.replay is None:
            title.update(Text(self.problem or "Nothing to replay.", style="bold red"))
            return
        r = self.replay
        who = "every hand open" if r.open_hands else (
            ("watching: what every seat saw" if self.watch_only else "spectator") if self.seat is None
            else f"seen by {r.names[self.seat]}")
        title.update(Text.assemble(
            ("Replay ", "bold"), (self.game_id, "bold"),
            f"  ·  event {r.position}/{len(r)}  ·  turn {r.turn_index + 1}/{r.turn_count}  ·  {who}",
            ("  ·  finished" if r.finished else "  ·  unfinished", "dim"),
            (f"  ·  hints: {r.hints_used}" if r.hints_used else "", "dim")))
        self.query_one(TurnSlider).value = r.turn_index
        self.query_one("#replay-event", Static).update(Text("▸ " + self.event_line()))
        v = r.view(self.seat)
        self.query_one("#replay-table", Static).update(self.table_text(v))
        sheet = self.query_one("#replay-sheet", Static)
        if r.finished and r.at_end:
            state = r.state
            result = engine.score(state)
            sheet.update(Group(
                Text("Final scores — " + winner_sentence(result, list(r.names), None), style="bold"),
                score_table(result, list(r.names), dict(state.owners))))
            sheet.display = True
        else:
            sheet.display = False

    def event_line(self) -> str:
        """The line for the event that led here. With every hand open it is
        told by name (no seat is "You": ``v`` only changes the table's point
        of view); a reveal says whether it was paid (the event before it)."""
        r = self.replay
        assert r is not None
        viewer = None if r.open_hands else self.seat
        if isinstance(r.event, ev.DisplayRevealed) and r.position > 1:
            return narrate(r.event, viewer, r.names, previous=r.events[r.position - 2]) or ""
        return r.narrate(viewer)

    def last_round(self) -> int | None:
        """The round of the game's last turn (a finished game), else None:
        after that turn the state counts a round never played (RULES §6)."""
        r = self.replay
        if r is None or not r.finished:
            return None
        if self._last_round is None:
            ends = [i for i, e in enumerate(r.events) if isinstance(e, ev.TurnEnded)]
            self._last_round = r.state_at(ends[-1]).round if ends else 0
        return self._last_round or None

    def table_text(self, v: engine.PlayerView) -> Text:
        """The table at this position: status, display, objectives, every seat."""
        out = Text()
        last = self.last_round()
        shown_round = min(v.round, last) if last is not None else v.round
        phase = {"draft": "Landscape draft", "setup": "Setup", "play": f"Round {shown_round}",
                 "ended": "Game over"}.get(v.phase, v.phase)
        out.append(f"{phase}", style="bold")
        out.append(f"   deck {v.deck_size}   torii left {v.torii_left}")
        if v.discard:
            out.append("   discard ")
            out.append_text(card_text(v.discard[-1]))
            out.append(f" ({len(v.discard)})")
        if v.end_trigger:
            out.append("   end triggered", style="bold")
        out.append("\nDisplay  ", style="bold")
        # The replay has no reveal key: an empty display is only empty.
        out.append_text(display_text(v) if v.display else Text("(empty)", style="dim"))
        out.append("\nObjectives  ", style="bold")
        for k, objective in enumerate(v.objectives):
            if k:
                out.append(" · ")
            owner = v.owner_of(objective)
            out.append(OBJECTIVE_NAMES[objective])
            if owner is not None:
                out.append(f" [{v.seats[owner].name}]", style="bold")
        for i, s in enumerate(v.seats):
            marker = "▶ " if i == v.current and v.phase in ("draft", "play") else "  "
            out.append(f"\n\n{marker}", style="bold")
            you = i == self.seat and self.replay is not None and not self.replay.open_hands
            name = self.seat_labels[i] if i < len(self.seat_labels) else s.name
            out.append(name + (" (you)" if you else ""), style="bold")
            out.append(f"   acorns {s.acorns}   turns {s.turns}   ")
            out.append_text(panorama_text(s, short=True))
            out.append("\n    hand ")
            if s.hand is not None:
                out.append_text(Text(" ").join(card_text(c) for c in s.hand) if s.hand else Text("(empty)"))
            else:
                out.append(f"{s.hand_size} cards", style="dim")
                if s.known:
                    out.append("  known: ", style="dim")
                    out.append_text(Text(" ").join(card_text(c) for c in s.known))
            out.append("\n    row  ")
            out.append_text(row_text(s))
        return out

    # ------------------------------------------------------------- actions

    def _moved(self) -> None:
        self.refresh_replay()

    def action_step(self, delta: int) -> None:
        """One event forward or back."""
        if self.replay is not None:
            self.replay.step(delta)
            self._moved()

    def action_turn(self, delta: int) -> None:
        """To the start of the next or the previous turn."""
        if self.replay is not None:
            self.replay.jump_turn(delta)
            self._moved()

    def action_start(self) -> None:
        """To the start of the game."""
        if self.replay is not None:
            self.replay.start()
            self._moved()

    def action_end(self) -> None:
        """To the end of the saved game."""
        if self.replay is not None:
            self.replay.end()
            self._moved()

    def action_seat(self) -> None:
        """See the table from the next seat. In a game still being played,
        only from the human seats' views (or a spectator's): the bots' hands
        stay hidden, or replaying would be a way to cheat (RULES §8)."""
        if self.replay is None:
            return
        if self.watch_only:
            self.notify("Watching: only what every seat saw (RULES §8).")
            return
        if self.replay.open_hands:
            choices: list[int | None] = list(range(len(self.replay.names)))
        else:
            choices = [*self.humans, None]
        i = choices.index(self.seat) if self.seat in choices else -1
        self.seat = choices[(i + 1) % len(choices)]
        self._moved()

    def action_scroll(self, lines: int) -> None:
        """Scroll the table when it is taller than the screen."""
        self.query_one("#replay-body", VerticalScroll).scroll_relative(y=lines, animate=False)

    def on_turn_slider_changed(self, message: TurnSlider.Changed) -> None:
        if self.replay is not None:
            self.replay.seek_turn(message.value)
            self._moved()

    def action_back(self) -> None:
        """Back to where the replay was opened from."""
        self.app.pop_screen()
