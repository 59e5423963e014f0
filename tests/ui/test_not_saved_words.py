"""What a player reads when a move is not saved (SERVER "Playing on a
database (PostgreSQL)"): a move refused because another worker or server saved a move of
the game first can never succeed by trying again (the game moved on; only
leaving it and opening it again helps), so the message must not say "Try
again" after "leave the game and open it again"."""

from __future__ import annotations

import errno

from momiji_tui.session.database_games import MOVED_ON
from momiji_tui.store.errors import Conflict, WriteFailed
from momiji_tui.ui.models.new_game import not_saved_text


def _moved_on() -> WriteFailed:
    try:
        try:
            raise Conflict("g1", expected=40, position=43)
        except Conflict as exc:  # as session.database_games.TableLog raises it
            raise WriteFailed("save the move", "g1", OSError(None, MOVED_ON)) from exc
    except WriteFailed as failed:
        return failed


def test_a_move_another_session_saved_first_says_to_reopen_not_to_try_again():
    text = not_saved_text(_moved_on())
    assert text.startswith("Not saved: another session saved a move of this game first")
    assert "leave the game and open it again" in text
    assert "Try again" not in text
    assert "The move was not made" in text


def test_disk_full_still_says_try_again():
    text = not_saved_text(WriteFailed("save the move", "g1", OSError(errno.ENOSPC, "No space left on device")))
    assert text.startswith("Not saved: disk full.")
    assert text.endswith("Try again, or quit.")
