"""Accounts without passwords (issue 35 section 1): a guest claims their identity — games,
name, history, devices — with a passkey (WebAuthn) and/or an e-mail address, and signs in on
another device with either; the one-time device link stays.

- `names`: an account's name folded for the uniqueness check, and the name a deleted
  account leaves behind;
- `store`: the rows (accounts, passkeys, e-mail links) on SQLite and PostgreSQL;
- `mail`: the sign-in e-mail, sent to the SMTP server in the settings;
- `passkeys`: the WebAuthn ceremonies (the `webauthn` package);
- `routes`: the /account pages and the passkey JSON endpoints.
"""
