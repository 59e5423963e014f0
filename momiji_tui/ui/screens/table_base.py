"""The table screen's base: the move being built (a ``MoveDraft``), the
message line, sending commands up to the host, and the footer's keys that
apply now (a key that does not apply says why: the engine's reason)."""

from __future__ import annotations

from rich.text import Text
from textual import events

from ...engine import Command
from ...engine import events as ev
from ..models.host import host
from ..models.move_draft import GAME_ACTIONS, DiscardFlow, LandscapeFlow, MoveDraft
from ..models.move_flows import LOWER_CASE_COLUMNS
from ..models.move_reasons import ALLOWED, QUICK
from ..models.render import CLICK_META
from .sized import SizedScreen
from ..models.table_footer_text import FooterKey
from ..models.turn_news import TurnNews
from ..widgets.table_footer import TableFooter
from ..widgets.table_regions import MessageLine, PreviewLine


class TableBase(SizedScreen):
    """What every part of the table screen shares."""

    def __init__(self) -> None:
        super().__init__()
        self.draft = MoveDraft(0, key=self.key)
        self.message = Text("")
        self.message_is_error = False
        self.last_move = Text("")  # another seat's latest move, shown while it plays
        self.news = TurnNews(None, [])  # the other seats' turns since yours (the news line)
        self._footer_keys: tuple[bool | None, ...] = ()  # which game keys apply now
        # The footer's keys for each ``_footer_keys`` seen (until the bindings change).
        self._footer_cache: dict[tuple[bool | None, ...], tuple[tuple[FooterKey, ...], FooterKey | None]] = {}
        self._seen_events: list[list[ev.Event]] = []  # the last lists of new events drawn
        self.ready = False
        self._message_drawn = False  # the message widget shows self.message
        self.footer: TableFooter | None = None  # the screen's footer, once composed


    # ------------------------------------------------- the move being built

    @property
    def selected(self) -> list[int]:
        """The hand cards selected, in the order chosen."""
        return self.draft.selected

    @property
    def columns(self) -> list[str]:
        """The display columns chosen for a collect."""
        return self.draft.columns

    @property
    def pending(self) -> tuple[str, str] | None:
        """The flow being built, as a pair: ``("landscape", id)`` or
        ``("discard", "end" | "")``; None when none is."""
        flow = self.draft.flow
        if isinstance(flow, LandscapeFlow):
            return ("landscape", flow.landscape)
        if isinstance(flow, DiscardFlow):
            return ("discard", "end" if flow.then_end else "")
        return None

    def key(self, binding_id: str) -> str:
        """The key shown for a binding (the user's key map applied)."""
        return host(self).key_for(binding_id)

    def say(self, text: str | Text, *, error: bool = False) -> None:
        """Show a message above the preview (a refusal is styled as an error)."""
        message = text if isinstance(text, Text) else Text(text)
        is_error = error and bool(message.plain)
        unchanged = (message.plain, is_error) == (self.message.plain, self.message_is_error) \
            and message.spans == self.message.spans and message.style == self.message.style
        self.message, self.message_is_error = message, is_error
        if self.ready and not (unchanged and self._message_drawn):
            self._message_drawn = True
            widget = self.query_one(MessageLine)
            widget.data = self.message
            widget.set_class(self.message_is_error, "-error")

    def refuse(self, text: str) -> None:
        """Explain a refusal (nothing changed), unless the preview line shows
        the same reason already (one illegal play is told once)."""
        preview = self.query_one(PreviewLine).data if self.ready else None
        if text and isinstance(preview, Text) and text in preview.plain:
            self.say("")
            return
        self.say(Text("✗ " + text), error=True)

    def send(self, command: Command) -> bool:
        """Submit; on refusal explain why. Returns True when accepted."""
        error = host(self).submit(command)
        if error:
            self.refuse(error)
            return False
        self.say("")
        return True

    def send_done(self, command: Command) -> bool:
        """Submit; when accepted forget the selection. Nothing is drawn here:
        the accepted command's table change (``refresh_table``) draws the new
        view once, with the selection gone (issue 13: drawing the old view
        first cost a second render of the hand and a frame)."""
        if self.send(command):
            self.draft.done()
            return True
        return False


    def redraw_move(self) -> None:
        """Redraw what the move being built shows (the screen draws)."""
        raise NotImplementedError

    # ------------------------------------------------------------- footer

    def why_not(self, action: str) -> str | None:
        """Why ``action`` cannot be taken now (None when it can): the move
        builder's reason, which is the engine's for every rule."""
        return self.draft.reason(action)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show only the keys that apply now (RULES §3 timing). The keys that
        depend only on the view (``ALLOWED``) or on the selection (``QUICK``)
        are answered by the move builder from the legal commands, not
        through ``why_not``: a screen that refuses one of them for its own
        reason overrides this too (⏎ goes through ``why_not``: the hint's
        screen takes it for its suggestion)."""
        if self.too_small:
            return action in ("menu",)
        if action == "back":
            return bool(self.draft.selected or self.draft.columns or self.draft.flow or self.message.plain)
        if action in GAME_ACTIONS:  # the reason is worked out only for a key pressed (``on_key``)
            return self.draft.allows(action) if action in ALLOWED or action in QUICK else \
                self.why_not(action) is None
        return True

    def update_footer(self, *, bindings_changed: bool = False) -> None:
        """Hand the footer the keys that apply now (each action once, the
        key map's key for it); it repaints its line only if they changed.

        The keys are computed once per set of the game keys that apply
        (``_footer_keys``) and kept; ``bindings_changed`` (a key map, the
        screen too small) forgets them."""
        footer = self.footer
        if footer is None:
            return
        if bindings_changed:
            self._footer_cache.clear()
        cached = self._footer_cache.get(self._footer_keys)
        if cached is None:
            cached = self._footer_cache[self._footer_keys] = self._footer_items()
        footer.keys, footer.palette = cached

    def _footer_items(self) -> tuple[tuple[FooterKey, ...], FooterKey | None]:
        """The footer's keys and the palette's key, from the active bindings."""
        keys: list[FooterKey] = []
        palette: FooterKey | None = None
        seen: set[str] = set()
        for key, (node, binding, enabled, _tip) in self.active_bindings.items():
            is_palette = key == self.app.COMMAND_PALETTE_BINDING and self.app.ENABLE_COMMAND_PALETTE
            action = binding.action if node is self or "." in binding.action else f"app.{binding.action}"
            if not (is_palette or (binding.show and action not in seen)):
                continue
            label = self.key(binding.id) if binding.id else self.app.get_key_display(binding)
            if is_palette:
                palette = FooterKey(label, binding.description, action, enabled)
            else:
                seen.add(action)
                keys.append(FooterKey(label, binding.description, action, enabled))
        return tuple(keys), palette

    def on_key(self, event: events.Key) -> None:
        """A key whose action does not apply now: say why; a key that is
        taken clears a refusal still shown (it was about an earlier key).

        The check waits until the keys queued before this one are handled
        (keys typed fast all arrive before the first one's binding runs), so
        it sees the table as this key's binding will; it never stops a key."""
        if self.too_small:
            return
        try:
            chain = self._modal_binding_chain
        except Exception:  # pragma: no cover - Textual internals
            return
        bound = False
        for namespace, bindings in chain:
            found = bindings.key_to_bindings.get(event.key, [])
            bound = bound or bool(found)
            if namespace is not self:
                continue
            for binding in found:
                name = binding.action.split("(")[0]
                if name in GAME_ACTIONS:
                    self.app.call_next(self._explain_refusal, name)
                    return
            if found:  # a key of this screen that is taken: a refusal shown is about an older key
                self.app.call_next(self._explain_refusal, "")
        if not bound and event.key in LOWER_CASE_COLUMNS:  # a free lower-case leaf letter: as its capital
            event.stop()
            self.app.call_next(self._type_as_capital, event.key.upper())

    def _still_shown(self) -> bool:
        """Whether a call queued behind keys may still act: not once the app
        exits (the keys behind a quit) or another screen is on top."""
        return self.app.return_code is None and self.is_active

    async def _type_as_capital(self, letter: str) -> None:
        if self._still_shown():
            await self.run_action(f"type('{letter}')")

    def _explain_refusal(self, action: str) -> None:
        """Say why ``action`` (a game action; "" for any other) is refused,
        else clear a refusal still shown: it was about an earlier key."""
        if not self._still_shown():
            return
        reason = self.why_not(action) if action else None
        if reason and self.is_mounted:
            self.refuse(reason)
        elif self.message_is_error and self.is_mounted:
            self.say("")

    async def on_click(self, event: events.Click) -> None:
        """Run the action of what was clicked (a card, a column, a pile, ⏎)."""
        action = event.style.meta.get(CLICK_META) if event.style else None
        if not action or self.too_small:
            return
        event.stop()
        name = action.split("(")[0]
        reason = self.why_not(name) if name in GAME_ACTIONS else None
        if reason:
            self.refuse(reason)
            return
        await self.run_action(action)

