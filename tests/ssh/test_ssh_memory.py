"""Memory held flat over connect/disconnect cycles.

After a client leaves, nothing of its session (the connection, the session,
the Textual app) may stay reachable: each app holds megabytes.
"""

from __future__ import annotations

import gc
import weakref

from ssh_harness import new_key, wait_app, wait_until


async def test_nothing_of_a_session_is_kept_after_its_client_left(start_game, clients):
    server = await start_game()
    apps: list[weakref.ref] = []
    others: list[weakref.ref] = []  # sessions, connections, asyncssh connections
    for i in range(4):
        term = await clients.terminal(server.port, username=f"p{i}",
                                      key=new_key() if i % 2 else None)
        await term.wait_for_text(f"Welcome, p{i}")
        apps.append(weakref.ref(await wait_app(server, f"p{i}")))
        state = server.handle._state
        others += [weakref.ref(x) for x in (*state.sessions, *state.connections)]
        others += [weakref.ref(c._conn) for c in state.connections if c._conn is not None]
        await term.close()
        await wait_until(lambda: server.handle.session_count == 0 and not server.lobby.members)
    await wait_until(lambda: not server.handle._state.connections)
    gc.collect()
    assert [ref() for ref in apps] == [None] * 4
    # Before: a "no session" timer re-armed after the connection was lost kept
    # every connection for the login timeout (10-20 s; longer in gen 2).
    kept = [type(ref()).__name__ for ref in others if ref() is not None]
    assert kept == []
    assert len(others) == 12


async def test_an_app_that_opened_the_new_game_form_is_freed(start_game, clients):
    # Before: the printable key "n" went through Textual's class-level
    # lru_cache (see the next test), which kept the parser, its last Key and
    # so the app.
    from ssh_harness import ESC

    server = await start_game()
    term = await clients.terminal(server.port, username="nina")
    await term.wait_for_text("Welcome, nina")
    app = weakref.ref(await wait_app(server, "nina"))
    term.send("n")
    await term.wait_for_text("New game")
    term.send(ESC)
    await term.wait_for_text("Welcome, nina")
    await term.close()
    await wait_until(lambda: server.handle.session_count == 0 and not server.lobby.members)
    await wait_until(lambda: not server.handle._state.connections)
    gc.collect()
    assert app() is None


def test_a_sessions_input_parser_is_freed_once_its_driver_drops_it():
    # Textual's XTermParser caches _parse_extended_key with functools.lru_cache
    # on the class, keyed by (parser, sequence): up to 1,024 parsers stayed
    # alive, each holding (in its parse generator) its last Key event, whose
    # sender is the session's whole app.
    from momiji_tui.ssh import driver

    parser = driver.XTermParser(debug=False)
    keys = [m for m in parser.feed("n") if type(m).__name__ == "Key"]
    assert [k.key for k in keys] == ["n"]
    ref = weakref.ref(parser)
    del parser, keys
    gc.collect()
    assert ref() is None


class FakeLoop:
    """call_later recorded, run by hand: no waiting."""

    def __init__(self) -> None:
        self.calls: list[tuple[float, object, object]] = []

    class Handle:
        def __init__(self, callback) -> None:
            self.callback, self.cancelled = callback, False

        def cancel(self) -> None:
            self.cancelled = True

    def call_later(self, delay, callback, *, context=None):
        handle = self.Handle(callback)
        self.calls.append((delay, handle, context))
        return handle

    def fire(self) -> None:
        calls, self.calls = self.calls, []
        for _, handle, context in calls:
            if not handle.cancelled:
                context.run(handle.callback)


def test_full_collections_follow_ended_sessions_in_proportion_to_those_still_running():
    # Soak: a finished app is a cycle of tens of thousands of objects that
    # only a full collection frees, and tune_gc makes those rare: the server
    # grew 1-2 MB a session. Now a full collection follows ended sessions,
    # once they reach a quarter of the sessions still running (a full
    # collection walks every live session, so its cost is paid per quarter).
    import contextvars

    from momiji_tui.ssh.game_server import SessionGarbage

    loop, collected, live = FakeLoop(), [], [0]
    garbage = SessionGarbage(lambda: live[0], loop, collect=lambda: collected.append(1), delay=2.0)
    garbage.session_ended()
    assert [(d, len(c)) for d, _, c in loop.calls] == [(2.0, 0)]  # soon, in an empty context
    assert isinstance(loop.calls[0][2], contextvars.Context)
    garbage.session_ended()  # one collection pending at a time
    assert len(loop.calls) == 1
    loop.fire()
    assert collected == [1]
    live[0] = 12  # 12 sessions running: a collection after 3 more ended
    garbage.session_ended()
    garbage.session_ended()
    assert loop.calls == []
    garbage.session_ended()
    assert len(loop.calls) == 1
    garbage.close()  # the server stops: nothing left to run
    loop.fire()
    assert collected == [1]


async def test_the_server_runs_a_full_collection_after_a_session_ended(start_game, clients):
    server = await start_game()
    collected: list[int] = []
    server.collect_after_sessions(collect=lambda: collected.append(1), delay=0.0)
    term = await clients.terminal(server.port, username="olga")
    await term.wait_for_text("Welcome, olga")
    assert collected == []
    await term.close()
    await wait_until(lambda: collected == [1])
