"""Screens and modal screens: one module per screen (the table's is ``table.py``,
its live-score panel ``table_score.py``). Screens type the app through
``models.host.host(self)``, never import ``ui/app.py``."""
