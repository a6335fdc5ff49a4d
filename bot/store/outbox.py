"""The outbox: messages a step causes, queued in its transaction and sent by the one
holder of each chat's lease, fenced by the lease's token."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .backend import Dialect, Row
from .base import TxQueries, dumps, loads
from .leases import lease_sql

# (holder, token) of a chat's lease: a write fenced by it happens only while it is current
Fence = tuple[str, int]


@dataclass(frozen=True)
class Batch:
    """A relay's next claim: the messages just sent (outbox id, the platform's answer),
    the chats whose waiting messages to claim, how many at most, and whether to keep the
    lease even when none is waiting (more was asked for meanwhile)."""

    settled: Sequence[tuple[int, dict[str, Any]]]
    chats: Sequence[str]
    limit: int
    keep: bool
    # The lease's end when nothing is left to send: -1 lets it go now; a time ahead keeps
    # it idle until then (the relay's ``linger``), so this holder goes on sending the
    # chat's next messages and no other worker takes it over meanwhile.
    idle_until: float = -1.0
    # Messages this holder handed over and is still sending (table edits paced by the
    # group's budget): not claimed again.
    skip: Sequence[int] = ()


# An outbox message's end: sent, or dropped (its adapter shed it: never sent, never retried)
Done = Literal["sent", "dropped"]
# Still to send: neither state above (two terms, so the partial index on unsent rows,
# ``state <> 'sent'``, still serves the queries)
_WAITING = "state <> 'sent' AND state <> 'dropped'"


@dataclass(frozen=True, slots=True)
class OutboxMessage:
    id: int
    chat_key: str
    msg_key: str
    kind: str
    payload: dict[str, Any]
    attempts: int  # > 0: an earlier sender may have sent it before it died
    state: str
    created: float = 0.0  # when it was queued (wall-clock seconds)


def outbox_key(table_key: str, version: int, index: int) -> str:
    """A message's identity: the ``index``-th output of the step that wrote ``version``
    (a step is written once per version, so a repeated step does not queue twice)."""
    return f"{table_key}#{version}.{index}"


def outbox_version(msg_key: str) -> int:
    """The table version a message was written at (``<table>#<version>.<n>``)."""
    _, _, tail = msg_key.rpartition("#")
    version, _, _ = tail.partition(".")
    return int(version) if version.isdigit() else 1 << 62


# An outbox message's columns, as ``_message`` reads them.
_MESSAGE = "id, chat_key, msg_key, kind, payload, attempts, state, created"

# Become (or stay) a chat's sender: see ``StoreTx.acquire_lease``; ``_acquiring`` gives
# its arguments.
_ACQUIRE = (
    "INSERT INTO chat_leases (chat_key, holder, until, token) VALUES (?, ?, ?, 1) "
    "ON CONFLICT (chat_key) DO UPDATE SET holder = excluded.holder, "
    "until = excluded.until, token = CASE WHEN chat_leases.holder = excluded.holder "
    "AND chat_leases.until >= ? THEN chat_leases.token ELSE chat_leases.token + 1 END "
    "WHERE chat_leases.until < ? OR chat_leases.holder = excluded.holder "
    "RETURNING token"
)


def _acquiring(chat_key: str, holder: str, now: float, ttl: float) -> tuple[Any, ...]:
    return (chat_key, holder, float(now + ttl), float(now), float(now))


def _settle_and_claim() -> str:
    """PostgreSQL's ``StoreTx.settle_and_claim`` in one statement: the lease's row locked
    (only this holder's, with this token), the settled messages marked sent, the next
    waiting ones claimed (not those just marked: one statement sees the table as it
    was), the lease kept or let go; one row per claimed message with the token (one with
    NULLs if none; none at all if the lease is lost)."""
    returned = _MESSAGE.replace("attempts", "attempts - 1")
    return (
        "WITH lease AS (SELECT token FROM chat_leases WHERE chat_key = ? AND holder = ? "
        "AND token = ? FOR UPDATE), marked AS (UPDATE outbox SET state = 'sent', sent = ?, "
        "result = m.result FROM unnest(CAST(? AS BIGINT[]), CAST(? AS TEXT[])) AS m (id, "
        f"result) WHERE outbox.id = m.id AND {_WAITING} AND EXISTS (SELECT 1 FROM lease) "
        "RETURNING outbox.id), claimed AS (UPDATE outbox SET state = 'sending', "
        "attempts = attempts + 1 WHERE EXISTS (SELECT 1 FROM lease) AND id IN ("
        "SELECT id FROM outbox WHERE chat_key = ANY(CAST(? AS TEXT[])) "
        f"AND {_WAITING} AND NOT (id = ANY(CAST(? AS BIGINT[]))) ORDER BY id LIMIT ?) "
        f"RETURNING {returned}), kept AS (UPDATE chat_leases SET until = CASE WHEN ? OR "
        "EXISTS (SELECT 1 FROM claimed) THEN CAST(? AS DOUBLE PRECISION) "
        "ELSE CAST(? AS DOUBLE PRECISION) END WHERE chat_key = ? AND "
        "token = (SELECT token FROM lease) RETURNING token) "
        "SELECT kept.token, claimed.* FROM kept LEFT JOIN claimed ON true"
    )


_SETTLE_AND_CLAIM = _settle_and_claim()


def _message(r: Row) -> OutboxMessage:
    return OutboxMessage(
        int(r[0]), str(r[1]), str(r[2]), str(r[3]), loads(r[4]), int(r[5]), str(r[6]), float(r[7])
    )


def _keys(chat_key: str | Sequence[str]) -> list[str]:
    return [chat_key] if isinstance(chat_key, str) else list(chat_key)


class OutboxQueries(TxQueries):
    """The outbox and the chats' leases inside one open transaction."""

    async def enqueue(
        self, chat_key: str, msg_key: str, kind: str, payload: dict[str, Any], now: float
    ) -> bool:
        """Add a message to send; False if one with this key is already queued (a retried
        step does not queue it twice)."""
        rows = await self.tx.fetch(
            "INSERT INTO outbox (chat_key, msg_key, kind, payload, created) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (msg_key) DO NOTHING RETURNING id",
            chat_key,
            msg_key,
            kind,
            dumps(payload),
            float(now),
        )
        return bool(rows)

    async def enqueue_many(
        self, chat_key: str, messages: Sequence[tuple[str, str, dict[str, Any]]], now: float
    ) -> None:
        """``enqueue`` for a step's messages (msg_key, kind, payload), in one statement."""
        await self.tx.executemany(
            "INSERT INTO outbox (chat_key, msg_key, kind, payload, created) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (msg_key) DO NOTHING",
            [(chat_key, k, kind, dumps(p), float(now)) for k, kind, p in messages],
        )

    async def acquire_lease(self, chat_key: str, holder: str, now: float, ttl: float) -> int | None:
        """Become (or stay) the one sender of a chat until ``now + ttl``. Returns the
        lease's fencing token, or None if another holder's lease has not run out. The
        token stays the same while one holder renews in time, and goes up whenever the
        lease changes hands or lapses, so a sender that finds another token than the one
        it started with knows someone else may have sent meanwhile."""
        rows = await self.tx.fetch(_ACQUIRE, *_acquiring(chat_key, holder, now, ttl))
        return int(rows[0][0]) if rows else None

    async def take_and_claim(
        self, chat_key: str, holder: str, now: float, ttl: float, chats: Sequence[str], limit: int
    ) -> tuple[int | None, list[OutboxMessage]]:
        """``acquire_lease`` and, only if it was taken, ``claim`` — the first claim of a
        relay's pump. On PostgreSQL one statement (the claim in a data-modifying WITH
        after the lease), so it commits by itself: one round trip where BEGIN, the two
        statements and COMMIT took four. Returns the token (None: another holder) and
        the messages."""
        if self.tx.dialect is not Dialect.POSTGRES:
            token = await self.acquire_lease(chat_key, holder, now, ttl)
            return token, ([] if token is None else await self.claim(chats, limit))
        returned = _MESSAGE.replace("attempts", "attempts - 1")
        rows = await self.tx.fetch(
            f"WITH lease AS ({_ACQUIRE}), claimed AS (UPDATE outbox SET state = 'sending', "
            "attempts = attempts + 1 WHERE EXISTS (SELECT 1 FROM lease) AND id IN ("
            "SELECT id FROM outbox WHERE chat_key = ANY(CAST(? AS TEXT[])) "
            f"AND {_WAITING} ORDER BY id LIMIT ?) RETURNING {returned}) "
            "SELECT lease.token, claimed.* FROM lease LEFT JOIN claimed ON true",
            *_acquiring(chat_key, holder, now, ttl),
            list(chats),
            limit,
        )
        if not rows:
            return None, []
        found = [_message(tuple(r)[1:]) for r in rows if r[1] is not None]
        return int(rows[0][0]), sorted(found, key=lambda m: m.id)

    async def settle_and_claim(
        self,
        chat_key: str,
        fence: Fence,
        now: float,
        ttl: float,
        batch: Batch,
    ) -> tuple[int | None, list[OutboxMessage]]:
        """A relay's later claim under the lease ``fence`` (holder, token): mark the
        messages ``batch.settled`` sent, claim the next waiting ones of ``batch.chats``,
        and keep the lease for ``ttl`` if any were claimed (or ``batch.keep``), else let it
        go. Returns the lease's token (None: the lease is no longer this holder's — then
        nothing was marked or claimed) and the messages. On PostgreSQL one statement with
        the lease's row locked first, committing by itself: one round trip where BEGIN,
        three statements and COMMIT took five. SQLite runs them in the open transaction,
        renewing before it claims (there a lapsed lease taken back gets the next token)."""
        if self.tx.dialect is not Dialect.POSTGRES:
            await self.mark_sent_many(batch.settled, now, fence)  # void if not ours
            token = await self.acquire_lease(chat_key, fence[0], now, ttl)
            if token is None:
                return None, []
            waiting = await self.claim(batch.chats, batch.limit, batch.skip)
            if not waiting and not batch.keep:
                await self.release_lease(chat_key, fence[0], batch.idle_until)
            return token, waiting
        ids = [i for i, _ in batch.settled]
        rows = await self.tx.fetch(
            _SETTLE_AND_CLAIM,
            chat_key,
            fence[0],
            fence[1],
            float(now),
            ids,
            [dumps(r) for _, r in batch.settled],
            list(batch.chats),
            [*ids, *batch.skip],
            batch.limit,
            batch.keep,
            float(now + ttl),
            float(batch.idle_until),
            chat_key,
        )
        if not rows:
            return None, []
        found = [_message(tuple(r)[1:]) for r in rows if r[1] is not None]
        return int(rows[0][0]), sorted(found, key=lambda m: m.id)

    async def release_lease(self, chat_key: str, holder: str, until: float = -1.0) -> None:
        """Let the lease lapse now (or at ``until``: held idle till then). The row stays,
        so the next holder's token is higher."""
        await self.tx.execute(
            "UPDATE chat_leases SET until = ? WHERE chat_key = ? AND holder = ?",
            float(until),
            chat_key,
            holder,
        )

    async def holds_lease(self, chat_key: str, holder: str, now: float) -> bool:
        row = await self.tx.fetchone(
            "SELECT 1 FROM chat_leases WHERE chat_key = ? AND holder = ? AND until >= ?",
            chat_key,
            holder,
            float(now),
        )
        return row is not None

    async def chats_to_send(self, now: float, limit: int = 100) -> list[str]:
        """Chats with unsent messages and no sender holding their lease (``lease_key``)."""
        return [chat for chat, _ in await self.chats_waiting(now, None, limit)]

    async def chats_waiting(
        self, now: float, holder: str | None, limit: int = 100
    ) -> list[tuple[str, bool]]:
        """Chats with unsent messages whose lease (``lease_key``) no sender holds, or
        ``holder`` does, each with whether it is ``holder``'s; the free ones first."""
        lease = lease_sql("o.chat_key", self.tx.dialect)
        rows = await self.tx.fetch(
            "SELECT o.chat_key, l.holder FROM outbox o "
            f"LEFT JOIN chat_leases l ON l.chat_key = {lease} AND l.until >= ? "
            f"WHERE {_WAITING.replace('state', 'o.state')} "
            "AND (l.holder IS NULL OR l.holder = ?) "
            "GROUP BY o.chat_key, l.holder ORDER BY l.holder IS NOT NULL, o.chat_key LIMIT ?",
            float(now),
            holder,
            limit,
        )
        return [(str(r[0]), r[1] is not None) for r in rows]

    async def unsent(self, chat_key: str | Sequence[str], limit: int = 50) -> list[OutboxMessage]:
        """A chat's unsent messages (or several chats', e.g. a forum's topics), oldest
        first."""
        keys = _keys(chat_key)
        if not keys:
            return []
        rows = await self.tx.fetch(
            f"SELECT {_MESSAGE} FROM outbox WHERE chat_key IN ({', '.join('?' * len(keys))}) "
            f"AND {_WAITING} ORDER BY id LIMIT ?",
            *keys,
            limit,
        )
        return [_message(r) for r in rows]

    async def claim(
        self, chat_key: str | Sequence[str], limit: int = 50, skip: Sequence[int] = ()
    ) -> list[OutboxMessage]:
        """``unsent`` with an attempt noted on each message (``mark_sending_many``) in the
        same statement: one round trip for the two. Each message comes back as it was
        before (its earlier attempts), oldest first. ``skip``: ids not to claim (handed
        over already and still being sent)."""
        keys = _keys(chat_key)
        if not keys:
            return []
        returned = _MESSAGE.replace("attempts", "attempts - 1")
        skipped = f" AND id NOT IN ({', '.join('?' * len(skip))})" if skip else ""
        rows = await self.tx.fetch(
            "UPDATE outbox SET state = 'sending', attempts = attempts + 1 WHERE id IN ("
            f"SELECT id FROM outbox WHERE chat_key IN ({', '.join('?' * len(keys))}) "
            f"AND {_WAITING}{skipped} ORDER BY id LIMIT ?) RETURNING {returned}",
            *keys,
            *skip,
            limit,
        )
        return sorted((_message(r) for r in rows), key=lambda m: m.id)

    async def mark_sending(self, message_id: int) -> None:
        """Note an attempt before the API call (committed first): a sender that finds it
        after a crash knows the message may already be out."""
        await self.tx.execute(
            "UPDATE outbox SET state = 'sending', attempts = attempts + 1 WHERE id = ?",
            message_id,
        )

    async def mark_sending_many(self, message_ids: Sequence[int]) -> None:
        """``mark_sending`` for a batch, in one statement."""
        await self.tx.executemany(
            "UPDATE outbox SET state = 'sending', attempts = attempts + 1 WHERE id = ?",
            [(i,) for i in message_ids],
        )

    def _fence(self) -> str:
        """Marks are fenced: only the sender whose token is still the lease's may mark."""
        lease = lease_sql("outbox.chat_key", self.tx.dialect)
        return (
            f" AND EXISTS (SELECT 1 FROM chat_leases l WHERE l.chat_key = {lease} "
            "AND l.holder = ? AND l.token = ?)"
        )

    async def mark_sent(
        self,
        message_id: int,
        now: float,
        result: dict[str, Any],
        fence: Fence | None = None,
    ) -> bool:
        """Record the platform's answer (e.g. the new message id); False if it was already
        marked (a retry that was recognised) or ``fence`` (holder, token) is no longer
        the chat's lease."""
        args: list[Any] = [float(now), dumps(result), message_id]
        if fence is not None:
            args.extend(fence)
        rows = await self.tx.fetch(
            f"UPDATE outbox SET state = 'sent', sent = ?, result = ? WHERE id = ? AND {_WAITING}"
            + ("" if fence is None else self._fence())
            + " RETURNING id",
            *args,
        )
        return bool(rows)

    async def mark_sent_many(
        self,
        sent: Sequence[tuple[int, dict[str, Any]]],
        now: float,
        fence: Fence | None = None,
        state: Done = "sent",
    ) -> None:
        """``mark_sent`` for messages whose calls returned together, in one statement;
        ``state="dropped"``: messages done with but not sent (their adapter shed them)."""
        if not sent:
            return
        tail = () if fence is None else tuple(fence)
        await self.tx.executemany(
            f"UPDATE outbox SET state = '{state}', sent = ?, result = ? WHERE id = ? "
            f"AND {_WAITING}" + ("" if fence is None else self._fence()),
            [(float(now), dumps(result), message_id, *tail) for message_id, result in sent],
        )

    async def mark_done_many(
        self,
        done: Sequence[tuple[int, dict[str, Any], Done]],
        now: float,
        fence: Fence | None = None,
    ) -> None:
        """``mark_sent_many`` for messages each with its own end state (sent, or dropped:
        shed by its adapter), in one statement — so it needs no transaction of its own
        (``Store.statement``)."""
        if not done:
            return
        tail = () if fence is None else tuple(fence)
        await self.tx.executemany(
            f"UPDATE outbox SET state = ?, sent = ?, result = ? WHERE id = ? AND {_WAITING}"
            + ("" if fence is None else self._fence()),
            [(state, float(now), dumps(r), i, *tail) for i, r, state in done],
        )

    async def sent_result(self, msg_key: str) -> dict[str, Any] | None:
        row = await self.tx.fetchone(
            "SELECT result FROM outbox WHERE msg_key = ? AND state = 'sent'", msg_key
        )
        return loads(row[0]) if row and row[0] is not None else None

    async def sends_since(self, chat_key: str, since: float) -> int:
        """Messages sent to a chat since a time, by any worker: the group budget."""
        row = await self.tx.fetchone(
            "SELECT count(*) FROM outbox WHERE chat_key = ? AND state = 'sent' AND sent >= ?",
            chat_key,
            float(since),
        )
        return int(row[0]) if row else 0

    async def prune_outbox(self, sent_before: float) -> None:
        await self.tx.execute(
            "DELETE FROM outbox WHERE state IN ('sent', 'dropped') AND sent < ?",
            float(sent_before),
        )
