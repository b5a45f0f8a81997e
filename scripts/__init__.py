"""Developer scripts: golden playthroughs, message catalogues."""
