"""Screens and modal screens: one module per screen (the table's is ``ui/table_screen.py``
until it moves). Screens type the app through ``models.host.host(self)``,
never import ``ui/app.py``."""
