"""Each other seat's turn summed up on one line at the table,
the last-round banner (RULES §6), and why the game ended on the score sheet."""

from __future__ import annotations

import pytest
from helpers import ScriptedBot, plain, scripted_bot, sit, situation, until_human_or_end, until_screen
from test_replay_words import finished_game

from momiji_tui import engine
from momiji_tui.engine import events as ev
from momiji_tui.session.table import BOT, SeatConfig
from momiji_tui.ui.app import MomijiApp
from momiji_tui.ui.models.new_game import NewGameOptions
from momiji_tui.ui.models.turn_news import NewsSlice, TurnNews, end_reason, news_text, turn_summary
from momiji_tui.ui.screens.scoring import ScoringScreen
from momiji_tui.ui.screens.table import TableScreen
from momiji_tui.ui.widgets.table_regions import Opponents
from momiji_tui.ui.widgets.turn_news import NewsLine


def test_turn_summary_tells_a_whole_turn_in_one_line():
    events = [ev.ColumnCollected(1, "M", (0, 1)), ev.CardsPlayed(1, (0,), ("right",), "same"),
              ev.AcornsGained(1, 1, "acorn pairs"), ev.TurnEnded(1)]
    line = turn_summary(1, events, ["You", "Kaede"])
    assert line.startswith("Kaede: collected 2 Maple (") and line.endswith("(new pile) +1●, ended")
    assert len(line) <= 80


def test_an_undo_takes_its_actions_out_of_the_summary():
    news = TurnNews(0, ["You", "Kaede"])
    news.feed([ev.PlayStarted(1), ev.ColumnCollected(1, "M", (0,)), ev.ActionsUndone(1, 1),
               ev.ColumnCollected(1, "G", (12,)), ev.TurnEnded(1)])
    assert news.summaries == [turn_summary(1, [ev.ColumnCollected(1, "G", (12,)), ev.TurnEnded(1)],
                                           ["You", "Kaede"])]


def test_one_line_sums_up_every_other_seat_each_in_its_share():
    summaries = ("Kaede: collected 3 Maple (M1 M2 M3), played G3 on Ginkgo +1●, ended",
                 "Ginnan: passed, ended", "Sakura: played K0 (new pile), drew 2, ended")
    line = news_text(NewsSlice(None, summaries, 1, others=3), width=80).plain
    assert "\n" not in line and len(line) <= 80
    assert [part.split(":")[0] for part in line.split(" · ")] == ["Kaede", "Ginnan", "Sakura"]
    assert "Ginnan: passed, ended" in line  # a short summary is whole; the long ones share the rest
    # Only the last turn of each other seat: older ones (a spectator's news) are left out.
    older = ("Sakura: passed, ended", *summaries)
    assert news_text(NewsSlice(None, older, 1, others=3), width=200).plain == " · ".join(summaries)
    # A line each when there is room.
    assert news_text(NewsSlice(None, summaries, 3, others=3), width=80).plain.split("\n")[1] == summaries[1]


async def bots_after_your_turn(pilot) -> list[str]:
    """Play your turn (scripted), let every bot play; the summaries of the
    bots' turns since, by the table's own words."""
    app = pilot.app
    await until_screen(pilot, TableScreen)
    await until_human_or_end(pilot)
    step = 0
    while app.table.current == 0:  # your turn, played by a scripted bot; then the bots play
        app.submit(ScriptedBot(step).choose(app.table.view(0)))
        step += 1
    await until_human_or_end(pilot)
    events, names = app.table.events, [s.name for s in app.table.seats]
    ends = [i for i, e in enumerate(events) if isinstance(e, ev.TurnEnded)]
    mine = max(i for i in ends if events[i].seat == 0)
    starts = [mine + 1] + [i + 1 for i in ends if i > mine][:-1]
    return [turn_summary(events[end].seat, events[start:end + 1], names)
            for start, end in zip(starts, [i for i in ends if i > mine], strict=True)]


@pytest.mark.parametrize(("seats", "size"), [(3, (80, 24)), (4, (80, 24)), (4, (120, 40))])
async def test_each_other_seats_turn_is_on_the_news_line(isolated_dirs, seats, size):
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot, new_game=NewGameOptions(seats=seats, seed=7))
    async with app.run_test(size=size) as pilot:
        expected = await bots_after_your_turn(pilot)
        assert len(expected) == seats - 1
        news = app.screen.query_one(NewsLine)
        shown = plain(news)
        assert news.region.height == 1 and "\n" not in shown and len(shown) <= news.region.width
        parts = shown.split(" · ")
        assert len(parts) == seats - 1, shown
        for part, summary in zip(parts, expected, strict=True):
            assert part == summary or (part.endswith("…") and summary.startswith(part[:-1])), (part, summary)


async def test_rules_6_last_round_banner_names_the_trigger_and_the_last_turn(isolated_dirs):
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    table = situation(hand="M0a", display="O1b", seats=3)
    table.state.end_trigger = "deck"
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await sit(pilot, table)
        shown = plain(screen.query_one(NewsLine))
        assert shown.startswith("Last round: the deck is empty. The game ends after Bot 2's turn"), shown


async def test_rules_6_score_sheet_says_why_the_game_ended(isolated_dirs):
    path, events = finished_game(isolated_dirs)
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot, resume_path=path)
    async with app.run_test(size=(100, 40)) as pilot:
        await until_screen(pilot, ScoringScreen)
        title = plain(app.screen.query_one("#scoring-title"))
        reason = end_reason(events, ["You", "Kaede"], viewer=0)
        assert reason is not None and reason in title and reason.startswith("Game over after round ")
        assert "in your turn" in reason and "You's" not in title  # seed 4: the deck ran out in your turn
        played = max(i for i, e in enumerate(events) if isinstance(e, ev.TurnEnded))
        assert f"round {engine.fold(events[:played]).round}:" in reason and len(reason) < 80


def test_rules_6_the_end_in_your_own_turn_is_told_as_your_turn():
    """Found playing at 60x20: "the deck ran out in You's turn"."""
    events = [ev.PlayStarted(0), ev.TurnEnded(0), ev.TurnEnded(1), ev.EndTriggered(0, "deck"), ev.TurnEnded(0),
              ev.TurnEnded(1)]
    assert end_reason(events, ["You", "Kaede"], viewer=0) == \
        "Game over after round 2: the deck ran out in your turn (RULES §6)."
    assert end_reason(events, ["Ann", "You"], viewer=1) == \
        "Game over after round 2: the deck ran out in Ann's turn (RULES §6)."


async def test_shared_table_names_a_bot_once_and_says_who_plays_a_seat(isolated_dirs):
    """Defect 10a: "Kaede (normal) (normal)"; and a seat a bot plays for its
    away owner looked like any bot (the view's ``seat_control``)."""
    app = MomijiApp(isolated_dirs, bot_delay=0, make_bot=scripted_bot)
    table = situation(hand="M0a", display="O1b", seats=3)
    table.seats[1] = SeatConfig("Kaede (normal)", BOT, "normal")
    table.seats[2] = SeatConfig("alice", BOT, "normal")  # taken over: a bot plays for alice
    table.state.seats[1].name, table.state.seats[2].name = "Kaede (normal)", "alice"
    table.state.seat_control = (None, None, ev.SeatControlChanged(2, "bot", "acct-1", "bot after a wait"))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await sit(pilot, table)
        kaede, alice = (plain(row) for row in screen.query_one(Opponents).rows)
        assert kaede.count("(normal)") == 1, kaede
        assert "alice (away: a bot plays for them)" in alice, alice
