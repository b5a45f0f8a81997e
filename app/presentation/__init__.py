"""What the server shows: HTML fragments and JSON messages built from a table's facts.

- `jinja_hooks`: the hooks into Jinja's internals that make rendering fast (and only them).
- `environment`: the templates' environment, its globals and filters, the translation glue,
  and the shared board's `mine()` / `own()` / `for_viewer`.
- `table`: the table page's fragments (boards, the state page, the log, the seats bar).
- `simple`: an error toast, the lobby's table list, chat lines.
- `messages`: the JSON messages (room facts, state messages).
"""
