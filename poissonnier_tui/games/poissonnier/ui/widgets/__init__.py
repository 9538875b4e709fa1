"""Widgets of the table screen, one per module (docs/ARCHITECTURE.md "Textual")."""
