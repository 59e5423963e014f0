"""Screens and modal screens: one module per screen (the table's is ``table.py``,
with its parts in ``table_*.py``). Screens type the app through ``models.host.host(self)``,
never import ``ui/app.py``."""
