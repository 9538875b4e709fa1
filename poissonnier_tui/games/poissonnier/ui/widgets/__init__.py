"""Widgets of the table screen, one per module (STYLE.md "Textual apps")."""
