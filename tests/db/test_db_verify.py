"""Fair by proof on PostgreSQL (RULES §2.2): a shared table saved on the
database commits to its seed in its header, and ``momiji verify GAME_ID
--database URL`` checks it as it checks a file."""

from __future__ import annotations

from momiji_tui import cli
from momiji_tui.session.database_games import DatabaseGames
from momiji_tui.session.deal_seed import seed_sha256
from momiji_tui.session.table import BOT, SeatConfig

SEATS = [SeatConfig("Ada", BOT, "easy"), SeatConfig("Kaede", BOT, "easy")]
SECRET = (1 << 127) | 0xBEEF


def test_rules_2_2_a_shared_game_on_the_database_commits_and_verifies(pg_url, pg_admin, capsys):
    games = DatabaseGames.open(pg_url)
    try:
        table = games.new_shared(SEATS, seed=SECRET, landscape_mode="starter", owners=())
        for _ in range(4):
            table.submit(table.bot_command(table.current))
        table.close_log()
    finally:
        games.close()
    assert table.seed_sha256 == seed_sha256(SECRET)
    code = cli.main(["verify", table.game_id, "--database", pg_url])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "") and "Commitment OK" in out and "Deal OK" in out
    # The commitment changed in the row after the fact: verify fails.
    pg_admin.execute("UPDATE games SET header = jsonb_set(header, '{seed_sha256}', to_jsonb(%s::text))",
                     (seed_sha256(1),))
    code = cli.main(["verify", table.game_id, "--database", pg_url])
    out, _ = capsys.readouterr()
    assert code == 1 and "FAILED" in out
    code = cli.main(["verify", "20260101-000000-abcdef", "--database", pg_url])
    _, err = capsys.readouterr()
    assert code == 2 and "20260101-000000-abcdef" in err
