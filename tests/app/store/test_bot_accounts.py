"""Bot accounts in the store (SQLite and PostgreSQL, migrated): a bot's token is found by its
hash until it is revoked, only by its owner and once; a bot's sockets (device `bot:<id>`) count
as signed out once its token is revoked, so a process that missed the bus closes them too."""

from __future__ import annotations

from app.identity import token_hash
from app.store import bots, people
from app.store.engine import make_engine, make_session_factory
from app.store.migrate import upgrade_database


async def test_tokens_revocation_and_bot_devices(db_url: str) -> None:
    await upgrade_database(db_url)
    engine = make_engine(db_url)
    try:
        async with make_session_factory(engine)() as db:
            owner = await people.create_user(db, "Ala")
            other = await people.create_user(db, "Ola")
            bot = await bots.create_bot(db, owner.id, "Rysiek", token_hash("secret"), 10.0)
            device = await people.create_device(db, owner.id, "agent", 10.0)
            await db.commit()

            found = await bots.bot_by_token(db, token_hash("secret"))
            assert found is not None and found.id == bot.id and found.name == "Rysiek"
            assert await bots.bot_by_token(db, token_hash("Secret")) is None
            assert await bots.is_bot(db, bot.id) and not await bots.is_bot(db, owner.id)
            ids = [f"bot:{bot.id}", "bot:999999", device.id]
            assert await people.revoked_among(db, ids) == ["bot:999999"]

            assert not await bots.revoke_bot(db, other.id, bot.id, 20.0)  # not hers
            assert await bots.revoke_bot(db, owner.id, bot.id, 20.0)
            assert not await bots.revoke_bot(db, owner.id, bot.id, 30.0)  # once
            await db.commit()
            assert await bots.bot_by_token(db, token_hash("secret")) is None
            assert sorted(await people.revoked_among(db, ids)) == sorted(
                [f"bot:{bot.id}", "bot:999999"]
            )
            listed = await bots.list_bots(db, owner.id)
            assert [(b.user_id, b.name, b.revoked) for b in listed] == [(bot.id, "Rysiek", 20.0)]
            assert await bots.list_bots(db, other.id) == []
    finally:
        await engine.dispose()
