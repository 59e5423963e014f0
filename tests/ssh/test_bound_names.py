"""Names bound to keys on the files store (session/bound_names.py,
store/names.py): a name belongs to the first key that used it; another
key is told so and gets name-2; a guest never shows a held name; a forged
fingerprint prefix gets nothing; a one-time code adds a second key; two
hosts on one data dir agree on who holds a name."""

from __future__ import annotations

import json
import re
import threading
from datetime import UTC, datetime, timedelta

from ssh_harness import ENTER, new_key, wait_until

from momiji_tui.session.bound_names import MAX_CODE_TRIES, NameSession, bind_key, code_hash, taken_line
from momiji_tui.session.lobby import Lobby
from momiji_tui.session.names import HINT_CHARS, player_label
from momiji_tui.ssh.game_server import bind_player, player_of
from momiji_tui.ssh.identity import Identity
from momiji_tui.store.names import FileNames

NOW = datetime(2026, 12, 3, 16, 0, tzinfo=UTC)
TAB = b"\t"


def fingerprint() -> str:
    return new_key().get_fingerprint("sha256")


def forged(real: str) -> str:
    """Another key's fingerprint made to share the first 4 characters after
    ``SHA256:`` with ``real``: what 4 million tries of key generation buy."""
    other = fingerprint()
    while other[11] == real[11]:
        other = fingerprint()
    return real[:11] + other[11:]


class Member:
    def __init__(self, player) -> None:
        self.player = player

    def lobby_event(self, event) -> None:
        pass


async def test_a_second_key_cannot_show_as_a_name_the_first_key_holds(game, clients):
    first = new_key()
    alice = await clients.terminal(game.port, username="alice", key=first)
    await alice.wait_for_text("Welcome, alice.")
    assert "belongs to another key" not in alice.text
    other = await clients.terminal(game.port, username="alice", key=new_key())
    await other.wait_for_text("The name alice belongs to another key: you are alice-2 here.")
    await other.wait_for_text("Welcome, alice-2.")
    guest = await clients.terminal(game.port, username="alice", size=(100, 30))  # no key
    await guest.wait_for_text("The name alice belongs to another key: you are alice-3 (guest) here.")
    await guest.wait_for_text("  alice — in the lobby")
    await guest.wait_for_text("  alice-2 — in the lobby")
    await guest.wait_for_text("  alice-3 (guest) — in the lobby")
    assert "alice (guest)" not in guest.text
    # The first key keeps its name in every later session; the second its own alice-2.
    again = await clients.terminal(game.port, username="ALICE", key=first)
    await again.wait_for_text("Welcome, alice.")
    both = [a for a in game.apps() if a.player.name == "alice"]
    assert len(both) == 2 and all(a.player.bound for a in both)
    assert len({a.player.account_id for a in both}) == 1 and game.lobby.label(both[1]) == "alice"
    names = FileNames(game.lobby.data_dir / "names")
    record = names.lookup("Alice")
    assert record is not None and record.keys == {first.get_fingerprint("sha256")}
    assert names.lookup("alice-3") is None  # a guest claims nothing


def test_a_forged_short_prefix_no_longer_helps(tmp_path):
    real = fingerprint()
    fake = forged(real)
    assert fake != real and fake[:11] == real[:11]  # the old 4-character tag: the same
    lobby = Lobby(tmp_path)
    book = FileNames(tmp_path / "names")
    shown = []
    for fp in (real, fake):
        player, session = bind_player(book, Identity.from_key(fp, "alice"), NOW)
        assert session is not None
        member = Member(player)
        lobby.enter(member)
        shown.append(lobby.label(member))
    assert shown == ["alice", "alice-2"]
    # Unbound (the store could not be asked) the tag is 11 characters: the forgery shows differently too.
    tags = [player_label(player_of(Identity.from_key(fp, "alice"))) for fp in (real, fake)]
    assert tags[0] != tags[1] and tags[0] == f"alice·{real[7:7 + HINT_CHARS]}" and HINT_CHARS * 6 > 64


def test_two_hosts_on_one_data_dir_agree_on_who_holds_a_name(tmp_path):
    """Eight keys on two stores of one folder (two hosts) ask for alice at
    once: exactly one holds it, every other is given another name."""
    stores = [FileNames(tmp_path / "names"), FileNames(tmp_path / "names")]
    keys = [fingerprint() for _ in range(8)]
    start = threading.Barrier(len(keys))
    given: dict[str, str] = {}

    def ask(i: int) -> None:
        start.wait()
        given[keys[i]] = bind_key(stores[i % 2], "alice", keys[i], f"key-{i:032x}", NOW).name

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(len(keys))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(given.values()) == sorted(["alice", *(f"alice-{n}" for n in range(2, 9))])
    [winner] = [k for k, name in given.items() if name == "alice"]
    for store in stores:
        record = store.lookup("alice")
        assert record is not None and record.keys == {winner}


def test_a_one_time_code_works_once_for_ten_minutes_and_only_a_few_wrong_tries(tmp_path):
    book = FileNames(tmp_path / "names")
    first, second, third = fingerprint(), fingerprint(), fingerprint()
    now = [NOW]
    owner = NameSession(book, bind_key(book, "alice", first, "key-" + "a" * 32, NOW), first, lambda: now[0])
    code = owner.new_code()
    assert re.fullmatch(r"[A-Z2-9]{5}-[A-Z2-9]{5}", code)
    assert not list((tmp_path / "names" / "codes").glob(f"*{code}*"))  # kept as its hash only
    new = NameSession(book, bind_key(book, "alice", second, "key-" + "b" * 32, NOW), second, lambda: now[0])
    assert new.bound.name == "alice-2"
    assert new.use_code(code.lower().replace("-", " ")) == (
        "This key now holds the name alice too: log in again as alice (ssh alice@…).")
    assert book.lookup("alice").keys == {first, second}
    assert bind_key(book, "alice", second, "key-" + "b" * 32, NOW).account_id == "key-" + "a" * 32
    late = NameSession(book, bind_key(book, "alice", third, "key-" + "c" * 32, NOW), third, lambda: now[0])
    assert late.use_code(code).startswith("That code is wrong, used or expired")  # used
    expiring = owner.new_code()
    now[0] = NOW + timedelta(minutes=10)
    assert late.use_code(expiring).startswith("That code is wrong")  # expired
    owner.new_code()
    now[0] = NOW + timedelta(minutes=21)
    owner.new_code()  # the one made 11 minutes ago is swept
    assert len(list((tmp_path / "names" / "codes").glob("*.json"))) == 1
    for _ in range(MAX_CODE_TRIES):
        late.use_code("AAAAA-AAAAA")
    now[0] = NOW
    fresh = owner.new_code()
    assert late.use_code(fresh).startswith("Too many wrong codes")
    assert third not in book.lookup("alice").keys
    assert book.use_code(code_hash(fresh), third, NOW) is not None  # the code itself was still good


def test_two_sessions_typing_one_code_at_once_add_one_key(tmp_path):
    stores = [FileNames(tmp_path / "names"), FileNames(tmp_path / "names")]
    owner = fingerprint()
    bind_key(stores[0], "alice", owner, "key-" + "a" * 32, NOW)
    stores[0].add_code(code_hash("ABCDEFGHJK"), "alice", NOW + timedelta(minutes=10), NOW)
    keys = [fingerprint() for _ in range(6)]
    start = threading.Barrier(len(keys))
    won: list[str] = []

    def use(i: int) -> None:
        start.wait()
        if stores[i % 2].use_code(code_hash("ABCDE-FGHJK"), keys[i], NOW) is not None:
            won.append(keys[i])

    threads = [threading.Thread(target=use, args=(i,)) for i in range(len(keys))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(won) == 1 and stores[1].lookup("alice").keys == {owner, won[0]}


def test_a_code_typed_while_the_disk_is_full_works_once_the_disk_has_room(tmp_path, monkeypatch):
    from pathlib import Path

    import pytest

    monkeypatch.syspath_prepend(str(Path(__file__).parents[1] / "store"))
    from store_faults import inject

    book = FileNames(tmp_path / "names")
    first, second = fingerprint(), fingerprint()
    owner = NameSession(book, bind_key(book, "alice", first, "key-" + "a" * 32, NOW), first, lambda: NOW)
    code = owner.new_code()
    new = NameSession(book, bind_key(book, "alice", second, "key-" + "b" * 32, NOW), second, lambda: NOW)
    with monkeypatch.context() as full:
        inject(full, "create", "ENOSPC")  # the new key's file cannot be written
        with pytest.raises(OSError):
            new.use_code(code)
    assert second not in book.lookup("alice").keys
    assert new.use_code(code).startswith("This key now holds the name alice too")  # not "wrong, used or expired"
    assert book.lookup("alice").keys == {first, second} and new.tries == 0


async def test_a_second_key_is_added_to_a_name_with_a_code_shown_in_the_first_keys_session(game, clients):
    first, second = new_key(), new_key()
    alice = await clients.terminal(game.port, username="alice", key=first)
    await alice.wait_for_text("Welcome, alice.")
    alice.send("k")
    await alice.wait_for_text("Your name and keys")
    await alice.wait_for_text("the name alice is yours")
    alice.send(ENTER)
    await alice.wait_for_text("Your code: ")
    code = re.search(r"Your code: ([A-Z2-9]{5}-[A-Z2-9]{5})", alice.text).group(1)

    laptop = await clients.terminal(game.port, username="alice", key=second)
    await laptop.wait_for_text("you are alice-2 here.")
    laptop.send("k")
    await laptop.wait_for_text("Have a code from your other key's session?")
    laptop.send(TAB)
    [lapp] = apps_of(game, second)
    await wait_until(lambda: lapp.focused is not None and lapp.focused.id == "names-code",
                     describe=lambda: f"focused: {lapp.focused}")
    laptop.send(code)
    laptop.send(ENTER)
    await laptop.wait_for_text("This key now holds the name alice too: log in again as alice")
    await laptop.close()

    again = await clients.terminal(game.port, username="alice", key=second)
    await again.wait_for_text("Welcome, alice.")
    assert "belongs to another key" not in again.text
    [owner] = apps_of(game, first)
    await wait_until(lambda: len(apps_of(game, second)) == 1)
    [added] = apps_of(game, second)
    assert added.player.account_id == owner.player.account_id  # the same games, the same seats
    assert game.lobby.label(added) == "alice"


def apps_of(game, key) -> list:
    fp = key.get_fingerprint("sha256")
    return [a for a in game.apps() if a.names is not None and a.names.fingerprint == fp]


def test_a_hostile_name_in_a_damaged_names_store_is_shown_escaped(tmp_path):
    """What a name file holds is text from disk: shown through safe_text like every name."""
    book = FileNames(tmp_path / "names")
    real = fingerprint()
    bind_key(book, "mallory", real, "key-" + "d" * 32, NOW)
    [path] = (tmp_path / "names").glob("*.json")
    body = json.loads(path.read_text())
    path.write_text(json.dumps({**body, "name": "mallory\x1b[2J\x07"}))
    player, session = bind_player(book, Identity.from_key(real, "mallory"), NOW)
    assert session is not None and player.bound
    label = Lobby(tmp_path).label(Member(player))
    assert "\x1b" not in label and "\x07" not in label and label.startswith("mallory")
    other, taken = bind_player(book, Identity.from_key(fingerprint(), "mallory"), NOW)
    line = taken_line(taken.bound.asked, other.name)
    assert other.name == "mallory-2" and "\x1b" not in line


async def test_a_name_with_markup_brackets_in_a_damaged_names_store_opens_the_names_screen(tmp_path):
    """Text from disk is never read as Textual markup: ``[/]`` in a name is shown, not parsed."""
    from momiji_tui.ui.lobby import LobbyApp
    from momiji_tui.ui.screens.names import NamesScreen

    book = FileNames(tmp_path / "names")
    real = fingerprint()
    bind_key(book, "mallory", real, "key-" + "d" * 32, NOW)
    [path] = (tmp_path / "names").glob("*.json")
    path.write_text(json.dumps({**json.loads(path.read_text()), "name": "mal[/]lory[b"}))
    player, session = bind_player(book, Identity.from_key(real, "mallory"), NOW)
    lobby = Lobby(tmp_path)
    app = LobbyApp(lobby, player, bot_delay=0, names=session)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            await pilot.press("k")
            await wait_until(lambda: isinstance(app.screen, NamesScreen))
            await pilot.pause()
            assert "mal[/]lory[b" in str(app.screen.query_one("#names-about").render())
            assert app.return_code is None
    finally:
        lobby.close()
