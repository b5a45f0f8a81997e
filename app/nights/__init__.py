"""Games nights: a host's series of tables for one group (the same or different games), with
standings across the night and a final podium (issue 35, section 4).

`points` is the pure scoring (places → points, standings, podium); `models` and `store` keep
a night and its tables; `service` starts nights and their next tables with the seats carried
over; the pages are in app/api/routes/nights.py. See docs/nights.md.
"""
