"""Widgets: they take data (a view), never the app, and post messages up."""
