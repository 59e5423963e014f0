"""What the client's terminal can do, from what the client sent.

The server's own ``TERM`` says nothing about a player's terminal, so each
session decides from the client's PTY request (its terminal type, e.g.
``xterm-256color``) and the environment variables of :data:`ACCEPTED_ENV`
that the client sent (OpenSSH sends only what ``SendEnv``/``SetEnv`` name,
e.g. ``ssh -o SetEnv=NO_COLOR=1 …`` or ``SendEnv COLORTERM`` in
``~/.ssh/config``). The rule, in order:

- ``dumb``: no full-screen game at all; a one-line message and exit.
- ``vt*`` (vt52, vt100, vt220…): no colour; no mouse, no kitty keys.
- ``linux``, ``ansi``, ``cons25``, ``sun``: 16 colours; no mouse, no kitty keys.
- otherwise: truecolor if ``COLORTERM`` is ``truecolor``/``24bit`` or the
  type ends in ``-direct``; 256 colours if it ends in ``-256color``; else 16.
  Mouse and kitty keys on (terminals ignore the modes they lack).
- ``NO_COLOR`` (present and not empty, no-color.org): shown in greys.

The server's ``--color-system`` is the most a session gets.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

ACCEPTED_ENV = ("TERM", "COLORTERM", "NO_COLOR")
"""Client environment variables the server reads; every other one is ignored."""
NO_CURSOR_TERMS = ("dumb", "unknown", "")
"""Terminal types that promise no cursor control (``""``: ``TERM`` unset or
empty): ``momiji`` refuses them locally with :func:`no_cursor_message`."""


def no_cursor_message(term: str) -> str:
    """The one line a terminal without cursor control gets, over SSH and
    locally alike: ``momiji needs a terminal with cursor control; TERM=dumb
    cannot show the game.`` (``term`` as the terminal gave it; empty: unset)."""
    return f"momiji needs a terminal with cursor control; TERM={term or '(unset)'} cannot show the game."


DUMB_MESSAGE = (no_cursor_message("dumb") + "\r\n").encode()
COLOR_SYSTEMS = (None, "standard", "256", "truecolor")
"""Colour systems from none to most (Rich/Textual names; None: no colour)."""
_NO_MODES = ("linux", "ansi", "cons25", "sun")


@dataclass(frozen=True)
class TerminalProfile:
    """How to drive one client's terminal.

    Attributes:
        dumb: no cursor control: the game cannot be shown.
        color_system: one of :data:`COLOR_SYSTEMS`.
        no_color: the client asked for no colour (greys only).
        mouse: turn on mouse reporting.
        kitty_keys: push the kitty keyboard protocol.
    """

    dumb: bool = False
    color_system: str | None = "truecolor"
    no_color: bool = False
    mouse: bool = True
    kitty_keys: bool = True


def terminal_profile(term_type: str | None, env: Mapping[str, str],
                     max_color: str | None = "truecolor") -> TerminalProfile:
    """The profile of a client terminal (see the module docstring for the rule).

    ``term_type``: from the PTY request (None: use ``env["TERM"]``).
    ``env``: what the client sent; only :data:`ACCEPTED_ENV` is read.
    ``max_color``: the server's cap, one of :data:`COLOR_SYSTEMS` (anything
    else, e.g. "auto", means no cap). Never raises.
    """
    term = (term_type or env.get("TERM") or "").strip().lower()
    no_color = bool(env.get("NO_COLOR"))
    if term == "dumb":
        return TerminalProfile(dumb=True, color_system=None, no_color=True, mouse=False, kitty_keys=False)
    if term.startswith("vt"):
        return TerminalProfile(color_system=None, no_color=no_color, mouse=False, kitty_keys=False)
    if term.startswith(_NO_MODES):
        return TerminalProfile(color_system=_cap("standard", max_color), no_color=no_color,
                               mouse=False, kitty_keys=False)
    colorterm = env.get("COLORTERM", "").strip().lower()
    if colorterm in ("truecolor", "24bit") or term.endswith("-direct"):
        depth = "truecolor"
    elif term.endswith("-256color"):
        depth = "256"
    else:
        depth = "standard"
    return TerminalProfile(color_system=_cap(depth, max_color), no_color=no_color)


def _cap(depth: str | None, max_color: str | None) -> str | None:
    if max_color not in COLOR_SYSTEMS:
        return depth
    return COLOR_SYSTEMS[min(COLOR_SYSTEMS.index(depth), COLOR_SYSTEMS.index(max_color))]
