"""Ratings (session/ratings.py, store/ratings.py): fixed results give
openskill's own numbers, ties are RULES §7's shared victory, bots sit at
fixed ratings, and a game is applied to the ratings file exactly once."""

from __future__ import annotations

import json
import threading

import pytest
from openskill.models import PlackettLuce

from momiji_tui.engine.scoring import ScoreSheet, SeatScore
from momiji_tui.session.rating_book import FileRatingBook
from momiji_tui.session.ratings import (
    BOT_RATINGS, NEW, GameResult, RatedSeat, game_result, ranks, rate, rated_account, rating_text,
)
from momiji_tui.store.ratings import Rating, RatingChange, RatingsFile

GAME, GAME2 = "20261203-160000-abcdef", "20261203-170000-abcdef"
ALICE, BOB, CAROL = "key-" + "a" * 32, "key-" + "b" * 32, "key-" + "c" * 32


def sheet(*totals_acorns: tuple[int, int]) -> ScoreSheet:
    seats = tuple(SeatScore(i, (), acorns, (), total) for i, (total, acorns) in enumerate(totals_acorns))
    best = max(totals_acorns)
    return ScoreSheet(seats, tuple(i for i, ta in enumerate(totals_acorns) if ta == best), False)


def test_ranks_rules_7_order_by_total_then_acorns_and_shared_victory():
    # RULES §7: highest total wins; the tie on total goes to more acorns; a tie on both is shared.
    assert ranks(sheet((40, 2), (55, 1), (40, 3), (12, 0))) == (3, 1, 2, 4)
    assert ranks(sheet((50, 4), (50, 4), (30, 1))) == (1, 1, 3)


def test_rate_gives_openskills_own_numbers_for_a_fixed_result():
    """Alice (rated before) beats Bob (new) and a Normal bot: the ratings are
    exactly what PlackettLuce().rate gives for the same teams and ranks."""
    alice = Rating(27.0, 6.0, 3)
    result = game_result(GAME, [None, None, "normal"], [ALICE, BOB, None], sheet((60, 3), (41, 2), (50, 1)))
    assert result is not None and result.ranks == (1, 3, 2)
    after = rate(result, {ALICE: alice, BOB: NEW})

    model = PlackettLuce()
    expected = model.rate([[model.rating(mu=27.0, sigma=6.0)], [model.rating()],
                           [model.rating(mu=BOT_RATINGS["normal"].mu, sigma=BOT_RATINGS["normal"].sigma)]],
                          ranks=[1, 3, 2])
    assert after[ALICE].mu == pytest.approx(expected[0][0].mu, abs=1e-12)
    assert after[ALICE].sigma == pytest.approx(expected[0][0].sigma, abs=1e-12)
    assert after[BOB].mu == pytest.approx(expected[1][0].mu, abs=1e-12)
    assert after[BOB].sigma == pytest.approx(expected[1][0].sigma, abs=1e-12)
    assert after[ALICE].games == 4 and after[BOB].games == 1
    assert set(after) == {ALICE, BOB}  # the bot's rating is fixed: nothing comes out for it


def test_rate_signs_winner_up_loser_down_and_a_shared_victory_splits_evenly():
    """Hand-checked: of two equal newcomers the winner's mu rises, the
    loser's falls by the same amount, both grow surer (sigma shrinks); two
    newcomers sharing the victory (RULES §7) over a third move up alike."""
    two = GameResult(GAME, (RatedSeat(ALICE), RatedSeat(BOB)), (1, 2))
    after = rate(two, {ALICE: NEW, BOB: NEW})
    assert after[ALICE].mu > NEW.mu > after[BOB].mu
    assert after[ALICE].mu - NEW.mu == pytest.approx(NEW.mu - after[BOB].mu)
    assert after[ALICE].sigma < NEW.sigma and after[BOB].sigma < NEW.sigma

    shared = game_result(GAME, [None, None, None], [ALICE, BOB, CAROL], sheet((50, 4), (50, 4), (30, 1)))
    assert shared is not None
    after = rate(shared, {ALICE: NEW, BOB: NEW, CAROL: NEW})
    assert after[ALICE].mu == pytest.approx(after[BOB].mu) and after[ALICE].mu > NEW.mu > after[CAROL].mu


def test_beating_a_stronger_bot_moves_a_rating_more():
    gains = {}
    for level in ("easy", "hard"):
        result = game_result(GAME, [None, None, level], [ALICE, BOB, None], sheet((60, 0), (40, 0), (50, 0)))
        assert result is not None
        gains[level] = rate(result, {ALICE: NEW, BOB: NEW})[ALICE].mu - NEW.mu
    assert gains["hard"] > gains["easy"] > 0


def test_bot_ratings_reproduce_the_measured_win_rates():
    """docs/BOTS.md: Hard beat Normal 65.3% of games, Normal beat Easy 99.5%."""
    model = PlackettLuce()

    def win(a: Rating, b: Rating) -> float:
        return model.predict_win([[model.rating(mu=a.mu, sigma=a.sigma)], [model.rating(mu=b.mu, sigma=b.sigma)]])[0]

    assert win(BOT_RATINGS["hard"], BOT_RATINGS["normal"]) == pytest.approx(0.653, abs=0.01)
    assert win(BOT_RATINGS["normal"], BOT_RATINGS["easy"]) == pytest.approx(0.995, abs=0.002)


def test_a_game_counts_only_with_two_rated_accounts():
    one = sheet((60, 0), (40, 0), (50, 0))
    assert game_result(GAME, [None, "normal", "hard"], [ALICE, None, None], one) is None  # one person
    assert game_result(GAME, [None, None, "hard"], [ALICE, "guest-0123456789abcdef", None], one) is None
    assert game_result(GAME, [None, None, None], [ALICE, ALICE, BOB], one) is None  # one account, two seats
    with_guest = game_result(GAME, [None, None, None], [ALICE, BOB, "guest-0123456789abcdef"], one)
    assert with_guest is not None and with_guest.seats[2] == RatedSeat(fixed=NEW)
    assert rated_account("guest-01") is None and rated_account(ALICE) == ALICE


def test_rating_text_shows_the_ordinal_and_the_change():
    before, after = Rating(25.0, 25 / 3, 0), Rating(27.0, 7.0, 1)
    assert rating_text(None, RatingChange(before, after)) == "rating 6.0 (+6.0)"
    assert rating_text(Rating(30.0, 1.0, 12)) == "rating 27.0"
    assert rating_text(None) == rating_text(NEW) == "unrated"


def test_the_ratings_file_applies_a_game_once(tmp_path):
    book = FileRatingBook(tmp_path)
    result = GameResult(GAME, (RatedSeat(ALICE), RatedSeat(BOB)), (1, 2))
    changes, applied = book.record(result)
    assert applied and changes[ALICE].after.mu > NEW.mu and changes[ALICE].before == NEW
    again, applied_again = FileRatingBook(tmp_path).record(result)  # a replayed end, another process
    assert not applied_again and again == changes
    assert book.look_up([ALICE, BOB, CAROL]) == {ALICE: changes[ALICE].after, BOB: changes[BOB].after}

    second, _ = book.record(GameResult(GAME2, (RatedSeat(BOB), RatedSeat(ALICE)), (1, 2)))
    assert second[ALICE].before == changes[ALICE].after  # the next game starts from the stored rating
    assert book.look_up([ALICE])[ALICE].games == 2


def test_the_ratings_file_under_two_threads_rates_a_game_once(tmp_path):
    calls = []

    def update(before):
        calls.append(1)
        return {a: Rating(r.mu + 1, r.sigma, r.games + 1) for a, r in before.items()}

    files = [RatingsFile(tmp_path / "ratings", NEW) for _ in range(2)]
    threads = [threading.Thread(target=f.apply_once, args=(GAME, [ALICE, BOB], update)) for f in files]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1 and files[0].read([ALICE])[ALICE].games == 1


def test_a_damaged_ratings_file_is_kept_aside_and_ratings_start_again(tmp_path):
    folder = tmp_path / "ratings"
    folder.mkdir()
    (folder / "ratings.json").write_text("{not json", encoding="utf-8")
    book = FileRatingBook(tmp_path)
    assert book.look_up([ALICE]) == {}
    changes, applied = book.record(GameResult(GAME, (RatedSeat(ALICE), RatedSeat(BOB)), (1, 2)))
    assert applied and changes[ALICE].before == NEW
    kept = [p for p in folder.iterdir() if ".damaged-" in p.name and not p.name.endswith(".txt")]
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8") == "{not json"
    assert json.loads((folder / "ratings.json").read_text(encoding="utf-8"))["games"][GAME]


def test_a_disk_that_refuses_changes_nothing(tmp_path, monkeypatch):
    from momiji_tui.store import _fs

    book = FileRatingBook(tmp_path)
    book.record(GameResult(GAME, (RatedSeat(ALICE), RatedSeat(BOB)), (1, 2)))
    kept = book.look_up([ALICE, BOB])

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(_fs, "write_file", full)
    with pytest.raises(OSError):
        book.record(GameResult(GAME2, (RatedSeat(ALICE), RatedSeat(BOB)), (2, 1)))
    assert book.look_up([ALICE, BOB]) == kept and book.file.changes_of(GAME2) is None


def test_a_ratings_file_of_random_bytes_is_kept_aside_and_ratings_start_again(tmp_path):
    folder = tmp_path / "ratings"
    folder.mkdir()
    junk = b"\xbb\xff\xfe\x00 not utf-8 \x80"
    (folder / "ratings.json").write_bytes(junk)
    book = FileRatingBook(tmp_path)
    assert book.look_up([ALICE]) == {}  # reported, not raised
    changes, applied = book.record(GameResult(GAME, (RatedSeat(ALICE), RatedSeat(BOB)), (1, 2)))
    assert applied and changes[ALICE].before == NEW
    kept = [p for p in folder.iterdir() if ".damaged-" in p.name and not p.name.endswith(".txt")]
    assert len(kept) == 1 and kept[0].read_bytes() == junk


@pytest.mark.parametrize("mu", ["1" + "0" * 400, "NaN", "Infinity"], ids=["huge", "nan", "inf"])
def test_a_ratings_file_with_a_number_out_of_range_is_kept_aside(tmp_path, mu):
    folder = tmp_path / "ratings"
    folder.mkdir()
    player = f'"{ALICE}": {{"mu": {mu}, "sigma": 8.3}}'
    text = f'{{"format": "momiji-ratings", "version": 1, "players": {{{player}}}, "games": {{}}}}'
    (folder / "ratings.json").write_text(text, encoding="utf-8")
    book = FileRatingBook(tmp_path)
    assert book.look_up([ALICE]) == {}
    changes, applied = book.record(GameResult(GAME, (RatedSeat(ALICE), RatedSeat(BOB)), (1, 2)))
    assert applied and changes[ALICE].before == NEW
    kept = [p for p in folder.iterdir() if ".damaged-" in p.name and not p.name.endswith(".txt")]
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8") == text


def test_a_ratings_file_of_a_newer_version_is_left_alone_and_no_game_is_rated_over_it(tmp_path):
    folder = tmp_path / "ratings"
    folder.mkdir()
    newer = json.dumps({"format": "momiji-ratings", "version": 2, "players": {}, "games": {}, "leagues": {}})
    (folder / "ratings.json").write_text(newer, encoding="utf-8")
    book = FileRatingBook(tmp_path)
    assert book.look_up([ALICE]) == {}
    with pytest.raises(OSError, match="newer"):
        book.record(GameResult(GAME, (RatedSeat(ALICE), RatedSeat(BOB)), (1, 2)))
    assert [p.name for p in folder.iterdir() if not p.name.startswith(".")] == ["ratings.json"]
    assert (folder / "ratings.json").read_text(encoding="utf-8") == newer
