"""Pure models of the UI: no Textual imports (``rich`` text is allowed).

The lowest layer inside ``ui/`` (app → screens → widgets → models).
"""
