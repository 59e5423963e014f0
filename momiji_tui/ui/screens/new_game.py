"""The new-game form: name, seats, bots, landscapes, bot speed, memory mode,
(over SSH) whether others may watch, seed."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Footer, Input, Label, Select, Static

from ...store.errors import StoreError
from ..models.host import host
from ..models.new_game import BOT_LEVELS, BOT_NAMES, BOT_SPEEDS, NewGameOptions, bot_speed_name
from ..widgets.form_input import FormInput
from .rules import field_citation
from .sized import SizedScreen, SizeNotice

FORM_RULES = {"landscapes": "2.1", "memory": "8", "seats": "2"}
"""The RULES section each field of the form is about (the rules key opens it)."""
NAME_MAX = 16
SEED_DIGITS = 9
#: What each text field takes, shown while it has the focus.
FIELD_HELP = {
    "name": f"Your name: at most {NAME_MAX} characters. ⏎ next field · ctrl+s starts the game.",
    "seed": (f"Seed: digits only, at most {SEED_DIGITS} (empty: a random deal). "
             "⏎ next field · ctrl+s starts the game."),
}


class NewGameScreen(SizedScreen):
    """Seats, each bot's level, landscapes, bot speed, memory mode and seed."""

    MIN_SIZE = (50, 14)
    # The first field, focused by Textual when the screen is shown (never on
    # a form already dismissed: an on_mount query_one crashed, NoMatches,
    # when Esc or quitting was handled before the form had mounted).
    AUTO_FOCUS = "#name"
    BINDINGS = [
        Binding("escape", "back", "Back", id="new.back"),
        Binding("ctrl+s", "start", "Start", id="new.start"),
        Binding("f2", "app.help('rules')", "Rules", id="new.rules"),
    ]

    def __init__(self, name: str | None = None) -> None:
        """``name``: the player's name to start with (the SSH lobby's player),
        else the last game's."""
        super().__init__()
        self.player_name = name

    def compose(self) -> ComposeResult:
        app = host(self)
        last = app.settings.settings.last_game or NewGameOptions()  # the last game's options, remembered
        levels = last.levels()
        yield SizeNotice()
        with Vertical(id="new-box"):
            yield Static("New game", classes="title")
            with Horizontal(classes="field"):
                yield Label("Your name", classes="field-label")
                yield FormInput(value=(self.player_name or last.name)[:NAME_MAX], id="name", max_length=NAME_MAX,
                                compact=True)
            with Horizontal(classes="field"):
                yield Label("Seats", classes="field-label")
                yield Select([("2 — you and 1 bot", 2), ("3 — you and 2 bots", 3), ("4 — you and 3 bots", 4)],
                             value=last.seats, allow_blank=False, compact=True, id="seats")
            for i, bot in enumerate(BOT_NAMES[:3], 1):
                with Horizontal(classes="field bot-level-field", id=f"level-{i}-field") as field:
                    field.display = i < last.seats  # a field per bot seat
                    yield Label(f"{bot} (bot)", classes="field-label")
                    yield Select([(level.capitalize(), level) for level in BOT_LEVELS],
                                 value=levels[i - 1] if i <= len(levels) else "normal", allow_blank=False,
                                 compact=True, id=f"level-{i}")
            with Horizontal(classes="field"):
                yield Label("Landscapes", classes="field-label")
                yield Select([("Starter panorama", "starter"), ("Draft (RULES §2.1)", "draft")],
                             value=last.landscape_mode, allow_blank=False, compact=True, id="landscapes")
            with Horizontal(classes="field"):
                yield Label("Bot speed", classes="field-label")
                yield Select([(f"{name.capitalize()}" + (f" ({secs:g} s a move)" if secs else " (no pause)"), name)
                              for name, secs in BOT_SPEEDS.items()],
                             value=bot_speed_name(app.bot_delay), allow_blank=False, compact=True, id="speed")
            with Horizontal(classes="field"):
                yield Label("Memory mode", classes="field-label")
                yield Select([("Off: piles show every card", False),
                              ("On: only top cards (RULES §8)", True)],
                             value=app.memory_mode, allow_blank=False, compact=True, id="memory")
            if app.may_be_watched():  # over SSH: others in the lobby may watch (session/spectators.py)
                with Horizontal(classes="field"):
                    yield Label("Watchers", classes="field-label")
                    yield Select([("Nobody may watch", False), ("Others may watch (no hand shown)", True)],
                                 value=False, allow_blank=False, compact=True, id="watchable")
            with Horizontal(classes="field"):
                yield Label("Seed", classes="field-label")
                yield FormInput(placeholder="random", id="seed", restrict=r"[0-9]*", max_length=SEED_DIGITS,
                                compact=True)
            yield Button("Start  (ctrl+s)", id="start", variant="primary", compact=True)
            yield Label(FIELD_HELP["name"], id="new-message")  # the name has the focus first
        yield Footer(compact=True)

    def cited_rules(self) -> str | None:
        """The RULES section the focused field cites (the app's rules key)."""
        return field_citation(self, FORM_RULES, "new-message")

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "seats":
            self.show_bot_fields(int(event.value))  # type: ignore[call-overload]

    def seat_count(self) -> int:
        """The seats chosen (2–4)."""
        return int(self.query_one("#seats", Select).value)  # type: ignore[arg-type]

    def show_bot_fields(self, seats: int) -> None:
        """One level field per bot seat: the fields of seats not in play are hidden."""
        bots = seats - 1
        for i, field in enumerate(self.query(".bot-level-field"), 1):
            field.display = i <= bots

    def options(self) -> NewGameOptions:
        """The form's values (each bot seat's level, RULES §2 seats)."""
        seed_text = self.query_one("#seed", Input).value.strip()
        seats = self.seat_count()
        levels = tuple(str(self.query_one(f"#level-{i}", Select).value) for i in range(1, seats))
        return NewGameOptions(
            name=self.query_one("#name", Input).value.strip()[:NAME_MAX] or "You",
            seats=seats,
            bot_level=levels[0],
            bot_levels=levels,
            landscape_mode=str(self.query_one("#landscapes", Select).value),
            seed=int(seed_text) if seed_text else None,
            bot_delay=BOT_SPEEDS[str(self.query_one("#speed", Select).value)],
            memory=bool(self.query_one("#memory", Select).value),
            watchable=any(bool(w.value) for w in self.query("#watchable").results(Select)),
        )

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """⏎ in a text field moves to the next field; only Start (or
        ctrl+s) starts a game."""
        event.stop()
        self.focus_next()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """A text field says what it takes while it has the focus."""
        if event.widget.id in FIELD_HELP:
            self.say(FIELD_HELP[event.widget.id])

    def on_form_input_refused(self, event: FormInput.Refused) -> None:
        """Say what a field did not take, and why."""
        shown = event.text if len(event.text) <= 12 else event.text[:11] + "…"
        if event.field.id == "name":
            self.say(f"Your name: at most {NAME_MAX} characters ({len(event.attempted)} would be too long): "
                     f"“{shown}” was not taken.")
        elif event.too_long:
            self.say(f"Seed: at most {SEED_DIGITS} digits: “{shown}” was not taken.")
        else:
            self.say(f"Seed: digits only (a whole number, 0 or more): “{shown}” was not taken.")

    def say(self, text: str) -> None:
        """Show ``text`` on the form's message line."""
        self.query_one("#new-message", Label).update(text)

    def action_start(self) -> None:
        """Start the game with the form's values."""
        try:
            host(self).start_game(self.options())
        except StoreError as exc:  # disk full, read-only…: the store's message says what failed
            self.say(str(exc))
        except (OSError, ValueError) as exc:
            self.say(f"Could not start: {exc}")

    def action_back(self) -> None:
        """Back to the menu."""
        self.app.pop_screen()
