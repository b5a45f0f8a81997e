"""The store: everything the server keeps in its database (app/store/base.py explains).

The aggregate modules (`tables`, `games`, `moves`, `people`, `history`, ...) hold plain
functions: the SQLAlchemy ones take an open `AsyncSession` (the caller owns the
transaction); the `*_at_once` ones are the PostgreSQL forms on an asyncpg connection (see
`app/store/pg.py`)."""
