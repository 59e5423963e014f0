"""The Momiji Textual app: menu, new game, draft, table, scoring, saved games, help.

The app holds at most one ``Table`` (session). Screens never change the game
themselves: they call ``MomijiApp.submit`` which sends a command to the
table. Bots think in a worker thread, so the table stays responsive.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path, PurePath
from typing import Any, ClassVar, cast

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding, Keymap
from textual.message import Message
from textual.screen import Screen
from textual.signal import Signal
from textual.worker import Worker, WorkerState

from ..bots.advice import Advice, advise as hard_advice
from ..engine import IllegalCommand
from ..engine.commands import Command
from ..engine.events import Event, HintShown
from ..session.saves import unfinished_games
from ..session.table import HUMAN, Table
from ..session.tutorial_table import TutorialTable
from ..store import SavedGame
from ..store.errors import SaveDiverged, StoreError, WriteFailed
from ..store.settings_file import settings_path
from .commands import game_commands
from .keymap import Owners, all_bindings, load_keymap, owners_of
from .models.hint import hint_not_saved_text
from .models.keymap import key_label
from .models.new_game import BOT_SPEEDS, NewGameOptions, bot_speed_name, not_saved_text
from .models.paths import stylesheets
from .models.settings import SettingsKeeper, last_game_of, memory_note
from .screens.choice import ChoiceScreen
from .screens.draft import DraftScreen
from .screens.help import HelpScreen
from .screens.table_score import LiveScoreScreen
from .screens.menu import MenuScreen
from .screens.new_game import NewGameScreen
from .screens.replay import ReplayScreen
from .screens.saved import SavedGamesScreen
from .screens.review import ReviewScreen
from .screens.rules import RulesScreen, cited_on
from .screens.scoring import ScoringScreen
from .screens.sized import SizedScreen
from .screens.table import TableScreen
from .themes import apply_remembered_theme, register_themes
from ..textual_fence import keep_strips_acyclic, mend_key_races

__all__ = ["BOT_SPEEDS", "MomijiApp", "NewGameOptions", "TableChanged", "not_saved_text"]

# Seconds before a bot's move that could not be saved is tried again.
BOT_SAVE_RETRY = 5.0
# Seconds each bot move stays on screen when no pace was chosen or remembered.
DEFAULT_BOT_DELAY = 0.6


class TableChanged(Message):
    """The table accepted a command; screens redraw from a fresh view."""

    def __init__(self, events: list[Event]) -> None:
        super().__init__()
        self.events = events


class MomijiApp(App[None]):
    """The game in the terminal.

    ``data_dir``: where saves go. ``new_game``/``resume_path`` open a game at
    once instead of the menu. ``bot_delay``: seconds between bot moves so a
    human can follow (0 in tests). ``make_bot``: bot factory (tests inject
    cheap bots). ``hosted``: running for a remote (SSH) user, so features
    that act on the server machine are off. ``replay_path``: open a saved
    game's replay (``momiji replay``; ``replay_watch``: as a spectator,
    ``--watch``). ``advise``: Hard's advice for the hint
    key (``bots.advice.advise``; the SSH server passes its bot pool's).
    """

    TITLE = "Momiji"
    CSS_PATH: ClassVar[list[str | PurePath]] = [*stylesheets()]
    ENABLE_COMMAND_PALETTE = True
    BINDINGS = [
        Binding("question_mark,f1", "help", "Help", id="app.help"),
        Binding("f2", "help('rules')", "Rules", id="app.rules", show=False),
        Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True, show=False),
    ]
    #: Every screen this app shows. Their own BINDINGS (and the app's) are the
    #: ids a key map may name (``keymap_owners``): a new screen is registered here.
    SCREEN_CLASSES: ClassVar[tuple[type[Screen[Any]], ...]] = (
        MenuScreen, NewGameScreen, SavedGamesScreen, ReplayScreen, HelpScreen, DraftScreen, TableScreen,
        ScoringScreen, ChoiceScreen, LiveScoreScreen, ReviewScreen, RulesScreen)

    def __init__(self, data_dir: str | os.PathLike[str], *, new_game: NewGameOptions | None = None,
                 resume_path: str | os.PathLike[str] | None = None,
                 replay_path: str | os.PathLike[str] | None = None, bot_delay: float | None = None,
                 make_bot: Callable[..., object] | None = None, hosted: bool = False,
                 advise: Callable[..., Advice] | None = None, learn: bool = False,
                 replay_watch: bool = False) -> None:
        super().__init__()
        self.replay_watch = replay_watch
        self.keys_mapped: dict[str, str] = {}  # binding id → keys, as the key map set them
        keep_strips_acyclic()  # no cyclic garbage per line drawn (textual_fence, defect 1)
        mend_key_races()  # keys that outrun a screen (textual_fence, defects 6–8)
        self.advise: Callable[..., Advice] = advise if advise is not None else hard_advice
        self.data_dir = Path(data_dir)
        self.make_bot = make_bot
        self.hosted = hosted
        # Remembered between runs (not by a hosted app: the server's files are not the player's).
        self.settings = SettingsKeeper(None if hosted else settings_path())
        remembered = self.settings.settings
        if bot_delay is None:
            bot_delay = BOT_SPEEDS[remembered.bot_pace] if remembered.bot_pace else DEFAULT_BOT_DELAY
        self.bot_delay = bot_delay
        self.memory_mode = bool(remembered.memory)
        self.table: Table | None = None
        self.seat = 0
        self.thinking: int | None = None
        # New events of the open game ([]: redraw only); see ui/models/host.py.
        self.table_changed: Signal[list[Event]] = Signal(self, "table-changed")
        # Memory mode toggled (RULES §8): logs render again from the start, before the redraw.
        self.memory_changed: Signal[bool] = Signal(self, "memory-changed")
        self._start_new = new_game
        self._start_resume = resume_path
        self._start_replay = replay_path
        self._start_learn = learn
        self._unsubscribe: Callable[[], None] | None = None
        self.keymap_problems: list[str] = []
        self.start_error: str | None = None  # why the game asked for could not be opened
        register_themes(self)
        if not hosted:  # a hosted app must not read the server's files for a remote user
            self.load_user_keymap()

    @classmethod
    def keymap_owners(cls) -> Owners:
        """The classes whose own BINDINGS make this app's key map: the app
        classes (down from ``MomijiApp``) and ``SCREEN_CLASSES``."""
        apps: Iterable[type] = reversed([c for c in cls.__mro__ if issubclass(c, MomijiApp)])
        return owners_of([*apps, *cls.SCREEN_CLASSES])

    def load_user_keymap(self) -> None:
        """Apply the user's key map file (binding id → keys), if there is one."""
        loaded = load_keymap(None, self.keymap_owners())
        self.keymap_problems = [f"Key map: {p}" for p in loaded.problems]
        if loaded.keys:
            self.set_keymap(loaded.keys)

    def set_keymap(self, keymap: Keymap) -> None:
        """Apply ``keymap`` (binding id → keys, as Textual's) and remember it
        for ``key_for``."""
        self.keys_mapped = dict(keymap)
        super().set_keymap(keymap)

    def key_for(self, binding_id: str) -> str:
        """The key a player presses for ``binding_id`` now (the key map
        applied), as shown on screen."""
        keys = self.keys_mapped.get(binding_id)
        if keys is None:
            binding = all_bindings(self.keymap_owners()).get(binding_id)
            keys = binding.key if binding is not None else "?"
        return key_label(keys)

    def set_bot_delay(self, seconds: float) -> None:
        """How long each bot move stays on screen before the next (0: instant); remembered."""
        self.bot_delay = max(0.0, float(seconds))
        self.notify(f"Bot speed: {bot_speed_name(self.bot_delay)}.")
        self.remember(bot_pace=bot_speed_name(self.bot_delay))

    def remember(self, **changes: object) -> None:
        """Remember settings for the next run (``SettingsKeeper.remember``);
        if they cannot be written, say so once and go on."""
        problem = self.settings.remember(**changes)
        if problem is not None:
            self.notify(problem, severity="warning", timeout=10)

    def start_screen(self) -> Screen[Any]:
        """The first screen: the menu. A front end with its own start screen
        (the SSH lobby) overrides this; game screens sit on top of it."""
        return MenuScreen()

    def on_mount(self) -> None:
        self.push_screen(self.start_screen())
        if not self.hosted:
            apply_remembered_theme(self, self.settings, self.remember)
        for problem in [*self.keymap_problems, *filter(None, [self.settings.problem])]:
            self.notify(problem, severity="warning", timeout=10)
        new, resume, replay = self._start_new, self._start_resume, self._start_replay
        if new is not None:
            self._open_or_exit(lambda: self.start_game(new), "start a new game")
        elif resume is not None:
            self._open_or_exit(lambda: self.resume_game(resume), "open the game")
        elif replay is not None:
            self.push_screen(ReplayScreen(replay, watch=self.replay_watch))
        elif self._start_learn:
            self._open_or_exit(self.start_tutorial, "start the tutorial")

    def _open_or_exit(self, open_game: Callable[[], None], what: str) -> None:
        """Open the game the command line asked for; if the store refuses
        (disk full, read-only, open elsewhere, damaged…), end the app with
        the reason and exit status 1 (``momiji`` prints it: no traceback)."""
        try:
            open_game()
        except (StoreError, OSError) as exc:
            # The store's messages say what failed already ("Could not create the game: disk full (…)").
            self.start_error = str(exc) if isinstance(exc, StoreError) else f"Could not {what}: {exc}"
            self.call_after_refresh(self.exit, return_code=1)  # once the menu below is mounted

    @property
    def holder(self) -> str:
        """Who holds a game open for writing, as a second writer is told."""
        return "an SSH session" if self.hosted else "the momiji app"

    def on_resize(self, event: events.Resize) -> None:
        """Every screen in the stack (not only the top one) learns the new
        size, so a hidden screen never lays out a broken, too-small table."""
        for screen in self.screen_stack:
            if isinstance(screen, SizedScreen) and screen.is_mounted:
                screen.fit_to_size()

    def on_unmount(self) -> None:
        self.close_table()

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The palette's system commands, without Screenshot (it writes files
        on the machine running the app, which over SSH is the server)."""
        for command in super().get_system_commands(screen):
            if "screenshot" not in command.title.lower():
                yield command
        yield from game_commands(self, self)

    def start_game(self, options: NewGameOptions) -> None:
        """Start and save a new game, then show its first screen. Raises the
        store's ``WriteFailed`` (an ``OSError``) if it cannot be saved."""
        if options.bot_delay is not None:
            self.bot_delay = max(0.0, options.bot_delay)
        if options.memory is not None:
            self.memory_mode = options.memory
        table = Table.new(options.seat_configs(), seed=options.seed,
                          landscape_mode=options.landscape_mode, data_dir=self.data_dir, holder=self.holder)
        self.remember(last_game=last_game_of(options), bot_pace=bot_speed_name(self.bot_delay),
                      memory=self.memory_mode)
        self.open_table(table, seat=0)

    def start_tutorial(self) -> None:
        """Start and save the guided first game (``session/tutorial.py``)
        against a scripted Easy, then show its table. Raises the store's
        ``WriteFailed`` (an ``OSError``) if it cannot be saved."""
        self.open_table(TutorialTable.begin(data_dir=self.data_dir, holder=self.holder), seat=0)

    def skip_step(self) -> str | None:
        """Play the rest of the tutorial's current step for the player.
        Returns None when done, else why not (not a tutorial, not your
        move, the move could not be saved)."""
        table = self.table
        if not isinstance(table, TutorialTable):
            return "Only Learn to play has steps to do for you."
        if table.current != self.seat or table.finished:
            return "Wait for your turn: then the step can be done for you."
        try:
            table.skip()
        except WriteFailed as exc:
            return not_saved_text(exc)
        return None

    def resume_game(self, path: str | os.PathLike[str]) -> None:
        """Continue a saved game where it stopped (bots included). Raises the
        store's errors (``StoreError``: damaged, newer, open elsewhere, cannot
        be written) with a message a player can read. The game already open
        here is shown again, not opened a second time (its lock is ours)."""
        current = self.table.log if self.table is not None else None
        if current is not None and Path(current.path).resolve() == Path(path).resolve():
            self.show_phase()
            return
        table = Table.resume(path, holder=self.holder)
        humans = [i for i, s in enumerate(table.seats) if s.kind == HUMAN]
        self.open_table(table, seat=humans[0] if humans else 0)

    def unfinished_solo(self) -> list[SavedGame]:
        """This player's games in progress, last played first, as
        ``session.saves.unfinished_games`` finds them (checked by the rules);
        [] when the data dir cannot be read."""
        try:
            return unfinished_games(self.data_dir)
        except (OSError, StoreError):
            return []

    def open_table(self, table: Table, seat: int) -> None:
        """Sit at ``table`` in ``seat`` and show the screen of its phase (a
        resumed tutorial as the tutorial, back at its step)."""
        table = TutorialTable.adopt(table)
        self.close_table()
        self.table = table
        self.seat = seat
        def changed(events: list[Event]) -> None:  # called by the table, in whichever app made the move
            self.post_message(TableChanged(events))

        self._unsubscribe = table.subscribe(changed)
        self.show_phase()
        self.drive_bots()

    def close_table(self) -> None:
        """Leave the current table; its save stays resumable."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self.table is not None:
            self.table.close()
            self.table = None
        self.thinking = None

    def show_phase(self) -> None:
        """Show the draft, table or scoring screen for the game's phase."""
        if self.table is None:
            return
        phase = self.table.state.phase
        by_phase: dict[str, type[SizedScreen]] = {"draft": DraftScreen, "ended": ScoringScreen}
        wanted = by_phase.get(phase, TableScreen)
        if isinstance(self.screen, wanted):
            return
        while len(self.screen_stack) > 2:
            self.pop_screen()
        if len(self.screen_stack) == 2 and not isinstance(self.screen, (DraftScreen, TableScreen, ScoringScreen)):
            self.push_screen(wanted())
        else:
            self.switch_screen(wanted())

    def submit(self, command: Command) -> str | None:
        """Send the player's command to the table. Returns None when accepted,
        else why not (nothing changed): the rules' explanation, or that the
        move could not be saved (``Not saved: disk full. …``)."""
        if self.table is None:
            return "There is no game on the table."
        try:
            self.table.submit(command)
        except IllegalCommand as exc:
            return str(exc)
        except WriteFailed as exc:
            return not_saved_text(exc)
        return None

    def hints_allowed(self) -> bool:
        """Whether the hint key works at the open table: always in
        a game of your own; at a shared table only if every player agreed."""
        return self.table is not None and self.table.hints_allowed

    def watchers(self) -> tuple[str, ...]:
        """The names of those watching the open game (none in a local app;
        over SSH, the lobby's spectators)."""
        return ()

    def may_be_watched(self) -> bool:
        """Whether a new game here may be offered to watchers (the new-game
        form's *Watchers* field): never in a local app."""
        return False

    def record_hint(self, seat: int, win_percent: int) -> str | None:
        """Record in the game log that ``seat`` was shown a hint.
        Returns None when saved, else why not (nothing changed, the hint is
        not shown): ``Not saved: disk full. The hint was not shown; …``."""
        if self.table is None:
            return "There is no game on the table."
        try:
            self.table.record([HintShown(seat, win_percent)])
        except WriteFailed as exc:
            return hint_not_saved_text(exc.reason)
        except ValueError as exc:
            return str(exc)
        return None

    def on_table_changed(self, message: TableChanged) -> None:
        self.show_phase()
        self.table_changed.publish(message.events)
        self.drive_bots()

    def drive_bots(self) -> None:
        """If a bot must act, let it think in a worker thread (a solo game;
        a shared table's bots run in the lobby's task: here they are only shown)."""
        table = self.table
        if table is None or self.thinking is not None or not table.bots_run_by_front_end:
            return
        seat = table.bot_to_move()
        if seat is None:
            return
        self.thinking = seat
        self.table_changed.publish([])
        self.run_worker(lambda: table.bot_command(seat, self.make_bot), thread=True,
                        group="bot", name=f"bot-{seat}", exit_on_error=False)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "bot" or event.state not in (WorkerState.SUCCESS, WorkerState.ERROR):
            return
        table = self.table
        if table is None or event.state == WorkerState.ERROR:
            self.thinking = None
            if table is not None:
                self.notify(f"A bot failed: {event.worker.error}", severity="error")
            return
        command = cast(Command, event.worker.result)  # what the worker's Table.bot_command returned

        def play() -> None:
            # ``thinking`` stays set while the move waits (the status line
            # keeps saying whose turn it is) and is cleared just before it.
            self.thinking = None
            if self.table is table and table.bot_to_move() == command.seat:
                try:
                    table.submit(command)
                    return
                except IllegalCommand as exc:  # a bot bug must not end the game
                    self.notify(f"A bot tried an illegal move: {exc}", severity="error")
                except WriteFailed as exc:  # the disk refused: nothing changed; try again later
                    name = table.seats[command.seat].name
                    self.notify(not_saved_text(exc, f"{name}'s move").replace(
                        "Try again, or quit.", f"Trying again in {BOT_SAVE_RETRY:g} s, or quit."),
                        severity="error", timeout=BOT_SAVE_RETRY)
                    if not isinstance(exc, SaveDiverged):  # the file is not ours: the player chooses
                        self.set_timer(BOT_SAVE_RETRY, self.drive_bots)
                    return
            self.drive_bots()

        if self.bot_delay > 0:
            self.set_timer(self.bot_delay, play)
        else:
            play()

    def action_help(self, what: str = "help") -> None:
        """Open the help screen (rules summary, powers, objectives, keys); ``"rules"``: the rules
        of record at the section the screen cites (``screens.rules.cited_on``: message, form field)."""
        screen = HelpScreen() if what == "help" else RulesScreen(cited_on(self.screen))
        if not isinstance(self.screen, type(screen)):
            self.push_screen(screen)

    def action_toggle_memory(self) -> None:
        """Memory mode (RULES §8): piles show only their top cards. Said on
        the table's message line there, else in a notification; remembered."""
        self.memory_mode = not self.memory_mode
        self.remember(memory=self.memory_mode)
        self.memory_changed.publish(self.memory_mode)
        self.table_changed.publish([])
        if not isinstance(self.screen, TableScreen):  # the table says it on its message line
            self.notify(memory_note(self.memory_mode, self.key_for("table.memory")))

    def open_url(self, url: str, *, new_tab: bool = True) -> None:
        """Links are never opened by a hosted app (it would act on the server)."""
        if not self.hosted:
            super().open_url(url, new_tab=new_tab)
