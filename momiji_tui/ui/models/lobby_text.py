"""The lobby's words: the guest note, who is playing (tables, then every
player online), what a solo player is doing. Pure: rich text, no Textual."""

from __future__ import annotations

from rich.text import Text

from ...session.lobby import LobbySnapshot, PendingTable
from ...session.spectators import WatchInfo

GUEST_NOTE = ("You came in as a guest (no SSH key). Your games are saved, but a guest cannot "
              "come back to them: connect with a key to keep them.")


def solo_activity(bots: int) -> str:
    """What a player in a solo game is doing, as others see it."""
    return f"solo game against {bots} bot{'s' if bots != 1 else ''}"


HINTS_ALLOWED = "hints allowed at this table"
"""Told to whoever joins a table whose creator allowed hints: joining is agreeing."""


def open_table_line(pending: PendingTable) -> str:
    """A waiting table as the join list shows it: id, seats, landscapes,
    and whether hints are allowed."""
    names = " · ".join(s.name if s.name else "(open seat)" for s in pending.seats)
    hints = f" · {HINTS_ALLOWED}" if pending.hints_allowed else ""
    return f"{pending.table_id}  {names}  [{pending.landscape_mode}]{hints}"


def who_is_playing(snapshot: LobbySnapshot) -> Text:
    """The "who is playing" panel: tables first, then every player online."""
    t = Text()
    t.append(f"Who is playing · {len(snapshot.players)} online\n", style="bold")
    marks = {"here": "", "away": " (away)", "bot": " (bot)", "bot for": " (away, a bot plays)", "open": ""}
    for info in snapshot.tables:
        label = f"table {info.table_id}" if info.state == "waiting" else info.table_id
        t.append(f"  {label}", style="bold")
        if info.state == "waiting":
            t.append(f" waiting for {info.open_seats} player{'s' if info.open_seats != 1 else ''}: ",
                     style="italic")
        else:
            t.append(f" {info.detail}: ", style="italic")
        t.append(" · ".join(f"{name}{marks.get(status, '')}" if status != "open" else "(open seat)"
                            for name, status in info.seats))
        t.append("\n")
    for name, activity in snapshot.players:
        t.append(f"  {name}", style="bold")
        t.append(f" — {activity}\n", style="dim")
    return t


def watch_line(info: WatchInfo) -> str:
    """A game one may watch, as the watch list shows it: id, kind, seats,
    where it stands, how many watch it."""
    watching = f" · {info.watchers} watching" if info.watchers else ""
    return f"{info.game_id}  {info.kind}: {' · '.join(info.names)}  [{info.detail}]{watching}"


def watchers_line(names: tuple[str, ...]) -> Text:
    """The line at a table that says who watches it (empty: nobody)."""
    if not names:
        return Text("")
    return Text(f"Watching: {', '.join(names)}", style="italic")
