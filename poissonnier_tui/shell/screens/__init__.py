"""Screens of the app: connecting, table, results, help, and the modal dialogs."""
