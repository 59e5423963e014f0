"""The table screen moved to ``ui/screens/table.py`` (issue 13); this name
stays for the importers that still use it."""

from .screens.table import HAND_KEYS, TableScreen, hand_order

__all__ = ["HAND_KEYS", "TableScreen", "hand_order"]
