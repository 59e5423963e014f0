"""momiji-tui: the card game Momiji in the terminal (see README.md)."""

__version__ = "0.1.0"
