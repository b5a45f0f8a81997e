"""Friends in the database (issue 35 section 2), on SQLite and PostgreSQL: one row per pair of
people, which the database itself keeps unique and never of one person twice; requests,
acceptance, removal; who is online and at which public tables; invitations; and the requests
module's refusals, each leaving the database as it was."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from app.errors import Refusal
from app.friends import requests
from app.store import friends
from app.store.models import Friendship, Invitation, Room
from app.store.people import create_device, create_user
from app.store.pg import open_store
from app.store.tables import SeatInfo, add_seat, create_room, get_table, new_table
from tests.app.store.test_room_writes import migrated

NOW = 1_800_000_000.0


async def test_requests_accept_and_remove(db_url: str) -> None:
    """A asks B: pending both ways round; B accepts: friends; either may end it."""
    async with migrated(db_url) as sessions:
        async with sessions.begin() as s:
            ala = await create_user(s, "Ala")
            bolek = await create_user(s, "Bolek")
            cezary = await create_user(s, "Cezary")
            await friends.add_request(s, ala.id, bolek.id, NOW)
        async with sessions() as s:
            assert not await friends.are_friends(s, ala.id, bolek.id)
            incoming = await friends.pending_requests(s, bolek.id, incoming=True)
            outgoing = await friends.pending_requests(s, ala.id, incoming=False)
            assert [(r.id, r.name) for r in incoming] == [(ala.id, "Ala")]
            assert [(r.id, r.name) for r in outgoing] == [(bolek.id, "Bolek")]
            assert await friends.pending_requests(s, ala.id, incoming=True) == []
        async with sessions.begin() as s:
            # Only the one asked can accept, and only once.
            assert not await friends.accept_request(s, ala.id, bolek.id, NOW)
            assert await friends.accept_request(s, bolek.id, ala.id, NOW + 1)
            assert not await friends.accept_request(s, bolek.id, ala.id, NOW + 2)
        async with sessions() as s:
            assert await friends.are_friends(s, bolek.id, ala.id)
            assert [f.name for f in await friends.friends_of(s, ala.id, NOW)] == ["Bolek"]
            assert [f.name for f in await friends.friends_of(s, bolek.id, NOW)] == ["Ala"]
            assert await friends.friends_of(s, cezary.id, NOW) == []
        async with sessions.begin() as s:
            assert not await friends.remove_link(s, ala.id, bolek.id, pending=True)
            assert await friends.remove_link(s, bolek.id, ala.id, pending=False)
        async with sessions() as s:
            assert await friends.link_between(s, ala.id, bolek.id) is None


@pytest.mark.parametrize("twice", ["same way", "other way", "oneself"])
async def test_the_database_keeps_one_row_per_pair(db_url: str, twice: str) -> None:
    """A second row for the same two people, whichever asks, and a row of one person with
    themself, are refused by the database (unique pair, check constraint)."""
    async with migrated(db_url) as sessions:
        async with sessions.begin() as s:
            ala = await create_user(s, "Ala")
            bolek = await create_user(s, "Bolek")
            if twice != "oneself":
                await friends.add_request(s, ala.id, bolek.id, NOW)
        with pytest.raises(IntegrityError):
            async with sessions.begin() as s:
                if twice == "same way":
                    await friends.add_request(s, ala.id, bolek.id, NOW)
                elif twice == "other way":
                    await friends.add_request(s, bolek.id, ala.id, NOW)
                else:
                    s.add(
                        Friendship(low_id=ala.id, high_id=ala.id, requester_id=ala.id, created=NOW)
                    )
                    await s.flush()
        async with sessions() as s:
            count = await s.scalar(select(func.count()).select_from(Friendship))
        assert count == (0 if twice == "oneself" else 1)


async def test_online_and_public_tables(db_url: str) -> None:
    """A friend is online when a device of theirs was seen within `ONLINE_WITHIN`; the tables
    listed are the public ones they sit at that wait or play (never a private one)."""
    async with migrated(db_url) as sessions:
        async with sessions.begin() as s:
            me = await create_user(s, "Me")
            near = await create_user(s, "Near")
            far = await create_user(s, "Far")
            for other in (near, far):
                await friends.add_request(s, me.id, other.id, NOW)
                await friends.accept_request(s, other.id, me.id, NOW)
            await create_device(s, near.id, "phone", NOW - 30)
            await create_device(s, far.id, "laptop", NOW - friends.ONLINE_WITHIN - 1)
            public = await create_room(
                s, host_id=far.id, game_id="incan_gold", options={}, num_seats=4, private=False
            )
            await create_room(
                s, host_id=far.id, game_id="karmaka", options={}, num_seats=2, private=True
            )
            finished = await create_room(
                s, host_id=me.id, game_id="ganges", options={}, num_seats=2, private=False
            )
            await add_seat(s, finished.id, 1, near.id)
            finished_row = await s.get(Room, finished.id)
            assert finished_row is not None
            finished_row.status = "finished"
        async with sessions() as s:
            rows = await friends.friends_of(s, me.id, NOW)
        assert [(f.name, f.online) for f in rows] == [("Near", True), ("Far", False)]
        assert rows[0].tables == []
        assert [(t.slug, t.game_id, t.status) for t in rows[1].tables] == [
            (public.slug, "incan_gold", "open")
        ]


async def test_invitations(db_url: str) -> None:
    """Inviting twice renews one invitation; it shows while the table waits or plays, with the
    private table's code; only its invitee can dismiss it."""
    async with migrated(db_url) as sessions:
        async with sessions.begin() as s:
            host = await create_user(s, "Host")
            guest = await create_user(s, "Guest")
            room = await create_room(
                s, host_id=host.id, game_id="incan_gold", options={}, num_seats=4, private=True
            )
            first = await friends.invite(s, room.id, host.id, guest.id, NOW)
            again = await friends.invite(s, room.id, host.id, guest.id, NOW + 5)
        assert first == again
        async with sessions() as s:
            shown = await friends.invitations_for(s, guest.id)
            assert await friends.invitations_for(s, host.id) == []
        assert [(i.from_name, i.game_id, i.created) for i in shown] == [
            ("Host", "incan_gold", NOW + 5)
        ]
        assert shown[0].href == f"/t/{room.slug}?code={room.invite_code}"
        async with sessions.begin() as s:
            assert not await friends.dismiss_invitation(s, first, host.id)
            assert await friends.dismiss_invitation(s, first, guest.id)
        async with sessions() as s:
            assert await s.scalar(select(func.count()).select_from(Invitation)) == 0


async def test_refusals_change_nothing(db_url: str) -> None:
    """Befriending oneself, asking twice, asking a friend again, answering a request that
    does not exist: each is refused with its code and the rows stay as they were. Asking
    someone who had asked you makes you friends."""
    async with migrated(db_url) as sessions:
        async with sessions.begin() as s:
            ala = await create_user(s, "Ala")
            bolek = await create_user(s, "Bolek")

        async def refused(code: str, action: object) -> None:
            async with sessions() as s:
                before = list((await s.execute(select(Friendship.__table__))).all())
                with pytest.raises(Refusal) as caught:
                    await action(s)  # type: ignore[operator]
                await s.rollback()
                after = list((await s.execute(select(Friendship.__table__))).all())
            assert caught.value.code == code
            assert before == after

        await refused("friend_self", lambda s: requests.ask(s, ala, ala, NOW))
        await refused("no_request", lambda s: requests.accept(s, ala, bolek, NOW))
        async with sessions.begin() as s:
            assert await requests.ask(s, ala, bolek, NOW) is False
        await refused("already_asked", lambda s: requests.ask(s, ala, bolek, NOW))
        await refused("no_request", lambda s: requests.accept(s, ala, bolek, NOW))
        await refused("no_request", lambda s: requests.cancel(s, bolek, ala))
        await refused("not_friends", lambda s: requests.unfriend(s, ala, bolek))
        async with sessions.begin() as s:
            assert await requests.ask(s, bolek, ala, NOW) is True  # crossing requests
        await refused("already_friends", lambda s: requests.ask(s, ala, bolek, NOW))
        await refused("already_friends", lambda s: requests.ask(s, bolek, ala, NOW))
        async with sessions() as s:
            assert await friends.are_friends(s, ala.id, bolek.id)


async def test_finding_people_by_link_or_name(db_url: str) -> None:
    """A profile link (full or a path) finds its person; a name finds one person (exactly,
    else ignoring case); a name two people share, or nobody's, is refused."""
    async with migrated(db_url) as sessions:
        async with sessions.begin() as s:
            zosia = await create_user(s, "Zosia")
            await create_user(s, "Anna")
            await create_user(s, "Anna")
        async with sessions() as s:
            links = (f"https://stolik.example/u/{zosia.id}", f"/u/{zosia.id}")
            for text in (*links, "Zosia", "zosia"):
                assert (await requests.find_person(s, text)).id == zosia.id
            for text, code in (
                ("Anna", "ambiguous_name"),
                ("Nobody", "unknown_person"),
                ("https://stolik.example/u/999999", "unknown_person"),
                ("   ", "no_person"),
            ):
                with pytest.raises(Refusal) as caught:
                    await requests.find_person(s, text)
                assert caught.value.code == code


async def test_a_friends_only_table_is_stored_as_such(db_url: str) -> None:
    """Either store (PostgreSQL's one-statement insert too) keeps a table's `friends_only`."""
    async with migrated(db_url) as sessions:
        async with sessions.begin() as s:
            host = await create_user(s, "Host")
        store = await open_store(db_url, sessions, 2)
        try:
            slugs = {}
            for flag in (True, False):
                room = new_table(
                    host_id=host.id,
                    game_id="incan_gold",
                    options={},
                    num_seats=3,
                    private=False,
                    clock="none",
                    bot_level="normal",
                    friends_only=flag,
                )
                async with sessions() as s:
                    await store.create_table(s, room, SeatInfo(0, host.id, ""))
                    await s.commit()
                slugs[flag] = room.slug
        finally:
            await store.close()
        async with sessions() as s:
            for flag, slug in slugs.items():
                stored = await get_table(s, slug)
                assert stored is not None and stored.friends_only is flag
