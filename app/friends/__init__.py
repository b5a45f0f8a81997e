"""Friends (issue 35 section 2), built on today's persons (the `users` table), so that guests
and, later, accounts have them alike:

- `requests`: asking someone to be friends (by their profile link or name), accepting,
  declining, cancelling, removing; every refusal says why and changes nothing;
- `invitations`: inviting a friend to your table in one click; the friend is told through
  `notify_invitation`, the one place a notification (push, e-mail) hooks in;
- who of your friends is online, and at which public tables they sit, is read by
  `app.store.friends.friends_of`.

A table can be "friends only": only its host and the host's friends may sit, while anyone who
may see the table (everyone for a public one, link holders for a private one) may still watch
(`app.table.seating`)."""
