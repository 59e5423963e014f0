"""Fair by proof (RULES §2.2: nobody may know the deal in advance): a shared
table commits to the SHA-256 of its secret seed before the first move, shows
the seed at the end, and ``momiji verify`` checks both the commitment and
that the seed gives the recorded deal (exit 0 verified, 1 failed, 2 cannot)."""

from __future__ import annotations

import hashlib
import json

from momiji_tui import cli
from momiji_tui.session.deal_seed import commitment_line, seed_sha256
from momiji_tui.session.shared_table import SharedTable
from momiji_tui.session.table import BOT, HUMAN, SeatConfig, Table
from momiji_tui.session.verify import CANNOT_CHECK, FAILED, VERIFIED, verify_game
from momiji_tui.store import load
from momiji_tui.store.log import header_problem

SECRET = (1 << 127) | 0xC0FFEE
SEATS = [SeatConfig("Ada", BOT, "easy"), SeatConfig("Kaede", BOT, "easy")]


def shared_game(data_dir, seed: int = SECRET, moves: int = 6) -> SharedTable:
    table = SharedTable.new(SEATS, seed=seed, data_dir=data_dir)
    for _ in range(moves):
        seat = table.bot_to_move()
        if seat is None:
            break
        table.submit(table.bot_command(seat))
    table.close_log()
    return table


def lines_of(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def write_lines(path, objects: list[dict]) -> None:
    path.write_text("".join(json.dumps(o, separators=(",", ":")) + "\n" for o in objects))


def momiji(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_rules_2_2_the_commitment_is_the_sha256_of_the_seeds_decimal_digits():
    assert seed_sha256(1234) == hashlib.sha256(b"1234").hexdigest()
    assert seed_sha256(SECRET) != seed_sha256(SECRET + 1)
    assert commitment_line("") == "" and seed_sha256(SECRET) in commitment_line(seed_sha256(SECRET))


def test_rules_2_2_a_shared_table_commits_to_its_seed_a_solo_game_does_not(tmp_path):
    table = shared_game(tmp_path, moves=0)
    header = load(table.log.path).header
    assert header["seed_sha256"] == seed_sha256(SECRET) == table.seed_sha256
    assert SharedTable.resume(table.log.path).seed_sha256 == seed_sha256(SECRET)  # kept across a restart
    solo = Table.new([SeatConfig("You", HUMAN), SEATS[1]], seed=5, data_dir=tmp_path)
    solo.close()
    assert "seed_sha256" not in load(solo.log.path).header and solo.seed_sha256 == ""


def test_rules_2_2_verify_accepts_an_honest_game(tmp_path):
    loaded = load(shared_game(tmp_path).log.path)
    verdict = verify_game(loaded.header, loaded.events)
    assert verdict.status == VERIFIED, verdict.lines
    assert verdict.lines[0].startswith("Commitment OK") and verdict.lines[1].startswith("Deal OK")


def test_rules_2_2_verify_fails_a_tampered_seed_commitment_or_deck(tmp_path):
    loaded = load(shared_game(tmp_path).log.path)
    header, events = loaded.header, loaded.events
    # Another seed in the log (header and creation): the commitment no longer matches, nor the deal.
    other = dict(events[0], seed=SECRET + 1)
    verdict = verify_game(dict(header, seed=SECRET + 1), [other, *events[1:]])
    assert verdict.status == FAILED and sum(line.startswith("FAILED") for line in verdict.lines) == 2
    # A commitment changed after the fact.
    verdict = verify_game(dict(header, seed_sha256=seed_sha256(7)), events)
    assert verdict.status == FAILED and "not the commitment" in verdict.lines[0]
    # A deck stacked after the seed was drawn: the seed no longer gives it.
    deck = list(events[0]["deck"])
    deck[0], deck[-1] = deck[-1], deck[0]
    verdict = verify_game(header, [dict(events[0], deck=deck), *events[1:]])
    assert verdict.status == FAILED and "does not give the recorded deal" in verdict.lines[-1]


def test_an_old_save_without_a_commitment_verifies_the_deal_only_and_says_so(tmp_path):
    table = Table.new(SEATS, seed=99, data_dir=tmp_path)
    table.close()
    loaded = load(table.log.path)
    verdict = verify_game(loaded.header, loaded.events)
    assert verdict.status == VERIFIED and verdict.lines[0].startswith("No commitment")


def test_a_header_commitment_that_is_not_64_hex_digits_is_damage(tmp_path):
    header = load(shared_game(tmp_path, moves=0).log.path).header
    assert header_problem(header) is None
    for bad in ("abc", 5, seed_sha256(1).upper()):
        assert header_problem(dict(header, seed_sha256=bad)) == \
            "The header's seed_sha256 is not 64 lowercase hex digits."


def test_momiji_verify_prints_one_line_each_with_exit_codes_0_1_2(isolated_dirs, capsys):
    table = shared_game(isolated_dirs / "tables")  # a server's shared table: <data>/tables/games/
    code, out, err = momiji(capsys, "verify", table.game_id)
    assert (code, err) == (0, "") and out.count("\n") == 2 and "Commitment OK" in out and "Deal OK" in out
    objects = lines_of(table.log.path)
    objects[1]["seed"] = objects[0]["seed"] = SECRET - 1
    tampered = isolated_dirs / "tampered.jsonl"
    write_lines(tampered, objects)
    code, out, _ = momiji(capsys, "verify", str(tampered))
    assert code == 1 and out.count("FAILED") == 2
    code, out, err = momiji(capsys, "verify", "20260101-000000-abcdef")
    assert code == 2 and out == "" and "20260101-000000-abcdef" in err
    no_seed = isolated_dirs / "no-seed.jsonl"
    objects = lines_of(table.log.path)
    objects[0]["seed"] = objects[1]["seed"] = None
    write_lines(no_seed, objects)
    code, out, _ = momiji(capsys, "verify", str(no_seed))
    assert code == CANNOT_CHECK and out == "The save records no seed: its deal cannot be checked.\n"


async def test_rules_2_2_the_table_shows_the_commitment_from_the_start(isolated_dirs):
    from momiji_tui.ui.app import MomijiApp
    from momiji_tui.ui.widgets.log_panel import LogPanel

    table = SharedTable.new([SeatConfig("You", HUMAN), SEATS[1]], seed=SECRET, data_dir=isolated_dirs)
    table.close_log()
    app = MomijiApp(isolated_dirs, bot_delay=0, resume_path=str(table.log.path))
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(50):
            if app.screen.query(LogPanel):
                break
            await pilot.pause(0.02)
        shown = " ".join(line.plain for line in app.screen.query_one(LogPanel).entries)
    assert seed_sha256(SECRET) in " ".join(shown.split()) and str(SECRET) not in shown


def test_rules_2_2_a_table_the_lobby_starts_commits_to_its_seed(tmp_path):
    from momiji_tui.session.lobby import Lobby, Player

    class Member:
        def __init__(self, account: str) -> None:
            self.player = Player(account, account)

        def lobby_event(self, event) -> None:
            pass

    lobby = Lobby(tmp_path, deal_seed=lambda: SECRET)
    alice, bob = Member("key-alice"), Member("key-bob")
    lobby.enter(alice)
    lobby.enter(bob)
    lobby.join_table(bob, lobby.create_table(alice, ["human"]).table_id)
    [live] = lobby.live.values()
    assert live.table.seed_sha256 == seed_sha256(SECRET)
    assert load(live.table.log.path).header["seed_sha256"] == seed_sha256(SECRET)
    lobby.close()


def test_an_exported_shared_game_imports_with_its_commitment_and_verifies(isolated_dirs, tmp_path, capsys):
    table = shared_game(tmp_path / "server")
    code, out, err = momiji(capsys, "import", str(table.log.path))
    assert code == 0, err
    code, out, _ = momiji(capsys, "verify", table.game_id)  # now one of the player's saved games
    assert code == VERIFIED and "Commitment OK" in out
    assert load(isolated_dirs / "games" / f"{table.game_id}.jsonl").header["seed_sha256"] == seed_sha256(SECRET)
    objects = lines_of(table.log.path)
    objects[0]["seed_sha256"] = "not hex"
    bad = tmp_path / "bad.jsonl"
    write_lines(bad, objects)
    code, _, err = momiji(capsys, "import", str(bad))
    assert code != 0 and "seed_sha256" in err  # refused, with the reason
