"""Post-game review by the bots (issue 36, section 1): a background queue of finished games,
each seat's decisions valued by the bots' blind search (engines/bots/review.py), stored once,
shown with the replay. See docs/review.md."""
