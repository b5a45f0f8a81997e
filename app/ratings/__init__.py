"""Ratings (issue 35 §3): one Weng-Lin rating (openskill, Plackett-Luce) per game and person.

- `model`: the pure part — a finished game's sides and places in, new ratings out;
- `bots`: the fixed rating of each bot level in each game, measured in the arena;
- `store`: the writes in the game-end transaction (once per seat) and the reads (a person's
  ratings and history, ratings beside names, the leaderboard);
- `chart`: a person's rating over time as an inline SVG drawn on the server.
"""
