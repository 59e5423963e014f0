"""The lobby over SSH: identities, per-identity saves, solo games, hostile names.

An in-process game server on port 0 (lobby + LobbyApp per session), asyncssh
clients and pyte screens; every wait bounded.
"""

from __future__ import annotations

from pathlib import Path

from ssh_harness import CTRL_S, ESC, new_key, wait_app, wait_until

from momiji_tui.session.lobby import SharedTable
from momiji_tui.ui.lobby import LobbyApp
from momiji_tui.ui.models.lobby_text import GUEST_NOTE
from momiji_tui.ui.screens.lobby import LobbyScreen
from momiji_tui.ui.screens.table import TableScreen


def files_under(root: Path) -> set[Path]:
    return {p for p in root.rglob("*") if p.is_file()}


async def start_solo_game(term, app) -> None:
    """n, then Start on the new-game form: a solo game against one bot."""
    term.send("n")
    await term.wait_for_text("New game")
    term.send(CTRL_S)
    await term.wait_for_text("Hand ")
    await wait_until(lambda: app.table is not None and isinstance(app.screen, TableScreen))
    # The bot may move first: wait for the human's turn, when nothing moves.
    await wait_until(lambda: app.table.current == app.seat and app.thinking is None)


async def test_lobby_renders_for_a_key_and_a_guest(game, clients):
    key = new_key()
    alice = await clients.terminal(game.port, username="alice", key=key)
    await alice.wait_for_text("Welcome, alice")
    fingerprint = key.get_fingerprint("sha256")
    await alice.wait_for_text(f"kept under your key {fingerprint[:19]}")
    for option in ("New game against bots", "Resume my games (0)", "Create a table", "Join a table (0 open)"):
        assert option in alice.text
    app = await wait_app(game, "alice")
    assert isinstance(app, LobbyApp) and isinstance(app.screen, LobbyScreen)
    assert app.hosted and app.player.account_id.startswith("key-")
    assert fingerprint not in str(app.data_dir) and "alice" not in str(app.data_dir)

    guest = await clients.terminal(game.port, username="bob")
    await guest.wait_for_text("Welcome, bob")
    await guest.wait_for_text("a guest cannot")  # GUEST_NOTE wraps at 80 columns
    assert GUEST_NOTE.startswith("You came in as a guest")
    guest_app = await wait_app(game, "bob")
    assert guest_app.player.is_guest and guest_app.player.account_id.startswith("guest-")
    # Both see each other in "who is playing".
    await alice.wait_for_text("2 online")
    await alice.wait_for_text("bob (guest) — in the lobby")  # names cannot impersonate
    await guest.wait_for_text("  alice — in the lobby")  # the name is alice's key's: shown bare


async def test_second_and_third_login_while_a_game_runs(game, clients):
    alice = await clients.terminal(game.port, username="alice", key=new_key())
    await alice.wait_for_text("Welcome, alice")
    app = await wait_app(game, "alice")
    await start_solo_game(alice, app)
    bob = await clients.terminal(game.port, username="bob")
    carol = await clients.terminal(game.port, username="carol", key=new_key())
    await bob.wait_for_text("Welcome, bob")
    await carol.wait_for_text("Welcome, carol")
    await carol.wait_for_text(f"{game.lobby.label(app)} — solo game against 1 bot")
    assert game.handle.session_count == 3
    # The game goes on while the others are in the lobby.
    n = len(app.table.events)
    alice.send("c")
    await wait_until(lambda: len(app.table.events) > n or app.screen.__class__.__name__ == "ChoiceScreen")


async def test_solo_game_saved_under_the_identity_and_resumed_by_the_same_key(game, clients, isolated_dirs):
    key = new_key()
    alice = await clients.terminal(game.port, username="alice", key=key)
    await alice.wait_for_text("Welcome, alice")
    app = await wait_app(game, "alice")
    await start_solo_game(alice, app)
    game_id, events = app.table.game_id, len(app.table.events)
    account = app.player.account_id
    saved = isolated_dirs / "players" / account / "games" / f"{game_id}.jsonl"
    assert saved.is_file()

    alice.conn.abort()  # a dropped connection
    await wait_until(lambda: game.handle.session_count == 0 and not game.lobby.members)
    assert not app.is_running and app.table is None

    # Someone else does not see it.
    mallory = await clients.terminal(game.port, username="alice", key=new_key())
    await mallory.wait_for_text("Resume my games (0)")
    assert "Continue your last game" not in mallory.text

    again = await clients.terminal(game.port, username="alice", key=key)
    await again.wait_for_text(f"Continue your last game ({game_id})")
    await again.wait_for_text("Resume my games (1)")
    again.send("c")
    await again.wait_for_text("Hand ")
    resumed = next(a for a in game.apps() if a.player.account_id == account)
    await wait_until(lambda: resumed.table is not None)
    assert resumed.table.game_id == game_id and len(resumed.table.events) == events


async def test_a_guest_game_is_saved_but_never_offered_back(game, clients, isolated_dirs):
    guest = await clients.terminal(game.port, username="gus")
    await guest.wait_for_text("Welcome, gus")
    app = await wait_app(game, "gus")
    await start_solo_game(guest, app)
    path = app.table.log.path
    assert path.parent.parent.name == app.player.account_id and path.is_file()
    guest.conn.abort()
    await wait_until(lambda: game.handle.session_count == 0)
    back = await clients.terminal(game.port, username="gus")
    await back.wait_for_text("Resume my games (0)")
    assert "Continue your last game" not in back.text
    assert path.is_file()  # still saved


async def test_one_solo_game_is_never_open_in_two_sessions(game, clients):
    key = new_key()
    first = await clients.terminal(game.port, username="one", key=key)
    await first.wait_for_text("Welcome, one")
    app = await wait_app(game, "one")
    await start_solo_game(first, app)
    second = await clients.terminal(game.port, username="two", key=key)
    await second.wait_for_text("Continue your last game")
    second.send("c")
    await second.wait_for_text("open in another of your sessions")
    other = await wait_app(game, "two")
    assert other.table is None


async def test_hostile_usernames_create_no_files_outside_the_data_dir(start_game, clients, tmp_path, isolated_dirs):
    game = await start_game(max_sessions_per_ip=8)
    before = files_under(tmp_path)
    for _i, username in enumerate(["../../etc", "a/b/../../c", "x" * 1000, "ｅｖｉｌ/..", ".."]):
        term = await clients.terminal(game.port, username=username, key=new_key())
        await term.wait_for_text("Welcome, ")
        app = [a for a in game.apps() if a.table is None and isinstance(a.screen, LobbyScreen)][-1]
        await start_solo_game(term, app)
        assert app.data_dir.parent == isolated_dirs / "players"
        term.send("q")  # back to the lobby: the game stays saved
        await term.wait_for_text("Welcome, ")
    new = files_under(tmp_path) - before
    assert new and all(isolated_dirs in p.parents for p in new)
    players = isolated_dirs / "players"
    for p in new:
        if players in p.parents:
            account = p.relative_to(players).parts[0]
            assert account.startswith("key-") and len(account) == 36
    names = {part for p in new for part in p.relative_to(isolated_dirs).parts}
    assert not any(".." in n or n == "etc" or "evil" in n or "x" * 17 in n for n in names)


async def test_no_screenshot_command_and_no_files_from_deliveries(game, clients, tmp_path):
    term = await clients.terminal(game.port, username="alice")
    await term.wait_for_text("Welcome, alice")
    app = await wait_app(game, "alice")
    before = files_under(tmp_path)
    term.send(b"\x10")  # ctrl+p: the command palette
    await term.wait_for_text("Search for commands")
    term.send("screensh")
    await term.wait_for_text("screensh")
    await term.wait_for_text("No matches found")
    term.send(ESC)
    await term.wait_for_no_text("screensh")
    # As if the UI asked for them (in the app's own context).
    app.call_later(app.deliver_screenshot)
    app.call_later(app.action_screenshot)
    app.call_later(app.open_url, "https://example.invalid/")
    term.send("j")  # a round trip through the app before looking at the disk
    await term.wait_for_text("No table is waiting")
    assert files_under(tmp_path) == before
    assert app.is_running


async def test_the_palette_offers_system_commands_but_not_screenshot(game, clients):
    term = await clients.terminal(game.port, username="alice")
    await term.wait_for_text("Welcome, alice")
    app = await wait_app(game, "alice")
    titles = [command.title for command in app.get_system_commands(app.screen)]
    assert "Quit" in titles and not any("screenshot" in t.lower() for t in titles)
    term.send(b"\x10")
    await term.wait_for_text("Search for commands")
    term.send("quit")
    await term.wait_for_text("Quit the application")


async def test_dropped_lobby_session_leaves_nothing_behind(game, clients):
    alice = await clients.terminal(game.port, username="alice", key=new_key())
    await alice.wait_for_text("Welcome, alice")
    alice.send("t")
    await alice.wait_for_text("Open the table")
    alice.send(CTRL_S)
    await alice.wait_for_text("Waiting for 1 more player")
    assert len(game.lobby.pending) == 1
    bob = await clients.terminal(game.port, username="bob")
    await bob.wait_for_text("Join a table (1 open)")
    alice.conn.abort()
    await wait_until(lambda: game.handle.session_count == 1)
    await wait_until(lambda: not game.lobby.pending and len(game.lobby.members) == 1)
    await bob.wait_for_text("Join a table (0 open)")
    assert isinstance(game.lobby.members, dict) and not any(
        isinstance(live.table, SharedTable) for live in game.lobby.live.values())
