"""Versioned schema for both back ends: entry N upgrades a database from version N to N+1.

SQLite keeps its version in ``PRAGMA user_version``; PostgreSQL in ``schema_migrations``.
Each step is written once, with the few column types that differ as ``{placeholders}``
filled per back end, so the two lists move in step (same version numbers, same tables and
columns) and the store's queries are one text for both. JSON values are stored as text in
both. A step already applied somewhere never changes: the filled-in text of every step is
exactly what it was when the step was released (tests/store/test_store.py checks the
schema each back end ends with).

A step may also be PostgreSQL's alone (``_POSTGRES_ONLY``): server-side functions that
save a worker round trips to the database. SQLite, in the process itself, has no round
trips to save; its entry for such a step changes nothing but the version, so the two
lists keep the same numbers.
"""

from __future__ import annotations

# The types that differ between the back ends.
_SQLITE_TYPES = {
    "boolean": "INTEGER",
    "true": "1",
    "real": "REAL",
    "serial": "INTEGER PRIMARY KEY AUTOINCREMENT",
}
_POSTGRES_TYPES = {
    "boolean": "BOOLEAN",
    "true": "TRUE",
    "real": "DOUBLE PRECISION",
    "serial": "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
}

# A command's database work in two statements — its lock and reads, then its whole
# write. The read must follow the lock in a statement of its own (under READ COMMITTED a
# statement sees what committed before it began; a function's each statement takes a new
# snapshot), so a function does both in one round trip.
_COMMAND_FUNCTIONS = """
CREATE FUNCTION gouji_lock_table(p_key TEXT, p_group TEXT)
RETURNS TABLE (r_record TEXT, r_live BOOLEAN, r_version INTEGER, r_settings TEXT)
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended(p_key, 0));
    RETURN QUERY
        SELECT t.record, t.live, t.version, s.settings
        FROM (SELECT p_key AS k, p_group AS g) q
        LEFT JOIN tables t ON t.table_key = q.k
        LEFT JOIN group_settings s ON s.group_key = q.g;
END $$;

CREATE FUNCTION gouji_write_step(
    p_key TEXT, p_record TEXT, p_live BOOLEAN, p_updated DOUBLE PRECISION, p_notify BOOLEAN,
    p_settings_group TEXT, p_settings TEXT, p_drop_all BOOLEAN, p_drop_before INTEGER,
    p_deals INTEGER[], p_idxs INTEGER[], p_seats INTEGER[], p_actions TEXT[], p_hands JSONB,
    p_set_deadline BOOLEAN, p_due_kind TEXT, p_due DOUBLE PRECISION,
    p_kinds TEXT[], p_payloads TEXT[], p_created DOUBLE PRECISION
) RETURNS INTEGER
LANGUAGE plpgsql AS $$
DECLARE
    v INTEGER;
    h JSONB;
    p JSONB;
BEGIN
    IF p_settings_group IS NOT NULL THEN
        INSERT INTO group_settings (group_key, settings) VALUES (p_settings_group, p_settings)
        ON CONFLICT (group_key) DO UPDATE SET settings = excluded.settings;
    END IF;
    IF p_drop_all THEN
        DELETE FROM actions WHERE table_key = p_key;
    ELSIF p_drop_before IS NOT NULL THEN
        DELETE FROM actions WHERE table_key = p_key AND deal_no < p_drop_before;
    END IF;
    INSERT INTO tables (table_key, record, live, version, updated)
    VALUES (p_key, p_record, p_live, 1, p_updated)
    ON CONFLICT (table_key) DO UPDATE SET record = excluded.record, live = excluded.live,
        version = tables.version + 1, updated = excluded.updated
    RETURNING tables.version INTO v;
    IF p_notify THEN
        PERFORM pg_notify('gouji_tables', v || ' ' || p_key);
    END IF;
    INSERT INTO actions (table_key, deal_no, idx, seat, action)
    SELECT p_key, a.deal_no, a.idx, a.seat, a.action
    FROM unnest(p_deals, p_idxs, p_seats, p_actions) AS a (deal_no, idx, seat, action)
    ON CONFLICT (table_key, deal_no, idx) DO UPDATE SET
        seat = excluded.seat, action = excluded.action;
    FOR h IN SELECT value FROM jsonb_array_elements(p_hands) LOOP
        INSERT INTO hands (group_key, table_key, deal_no, record)
        VALUES (h ->> 'group', p_key, (h ->> 'deal')::INTEGER, h ->> 'record');
        FOR p IN SELECT value FROM jsonb_array_elements(h -> 'players') LOOP
            INSERT INTO player_stats (group_key, user_id, name, hands, firsts, lasts, points)
            VALUES (h ->> 'group', p ->> 0, p ->> 1, 1,
                    ((p ->> 2)::INTEGER = 1)::INTEGER, ((p ->> 2)::INTEGER = 6)::INTEGER,
                    (p ->> 3)::INTEGER)
            ON CONFLICT (group_key, user_id) DO UPDATE SET
                name = excluded.name, hands = player_stats.hands + 1,
                firsts = player_stats.firsts + excluded.firsts,
                lasts = player_stats.lasts + excluded.lasts,
                points = player_stats.points + excluded.points;
        END LOOP;
    END LOOP;
    IF p_set_deadline AND p_due IS NULL THEN
        DELETE FROM deadlines WHERE table_key = p_key;
    ELSIF p_set_deadline THEN
        INSERT INTO deadlines (table_key, kind, due) VALUES (p_key, p_due_kind, p_due)
        ON CONFLICT (table_key) DO UPDATE SET kind = excluded.kind, due = excluded.due;
    END IF;
    INSERT INTO outbox (chat_key, msg_key, kind, payload, created)
    SELECT p_key, p_key || '#' || v || '.' || (o.n - 1), o.kind, o.payload, p_created
    FROM unnest(p_kinds, p_payloads) WITH ORDINALITY AS o (kind, payload, n)
    ORDER BY o.n
    ON CONFLICT (msg_key) DO NOTHING;
    RETURN v;
END $$;
"""
_NOTHING_HERE = "-- PostgreSQL's functions only: nothing to change on SQLite\n"

# A command in one statement, when the worker's copy of the table is current: the lock,
# a check that the table and its group's settings are still what the step was computed
# from, the seats and the whole write — or nothing (NULL) if either changed, and the
# worker runs the command again under the lock with what is stored. One round trip, and
# no transaction left open across the worker's step, where BEGIN, the lock, the write
# and COMMIT took four. Each statement of the function sees what committed before it
# began (READ COMMITTED), so the check after the lock sees every earlier write.
_CHECKED_WRITE = """
CREATE FUNCTION gouji_write_step_if(
    p_expected INTEGER, p_group TEXT, p_seen_settings TEXT, p_set_players BOOLEAN,
    p_players TEXT[],
    p_key TEXT, p_record TEXT, p_live BOOLEAN, p_updated DOUBLE PRECISION, p_notify BOOLEAN,
    p_settings_group TEXT, p_settings TEXT, p_drop_all BOOLEAN, p_drop_before INTEGER,
    p_deals INTEGER[], p_idxs INTEGER[], p_seats INTEGER[], p_actions TEXT[], p_hands JSONB,
    p_set_deadline BOOLEAN, p_due_kind TEXT, p_due DOUBLE PRECISION,
    p_kinds TEXT[], p_payloads TEXT[], p_created DOUBLE PRECISION
) RETURNS INTEGER
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended(p_key, 0));
    IF (SELECT version FROM tables WHERE table_key = p_key) IS DISTINCT FROM p_expected
        OR (SELECT CAST(settings AS JSONB) FROM group_settings WHERE group_key = p_group)
            IS DISTINCT FROM CAST(p_seen_settings AS JSONB) THEN
        RETURN NULL;
    END IF;
    IF p_set_players THEN
        DELETE FROM table_players WHERE table_key = p_key;
        INSERT INTO table_players (user_id, table_key)
        SELECT u, p_key FROM unnest(p_players) AS u
        ON CONFLICT (user_id, table_key) DO NOTHING;
    END IF;
    RETURN gouji_write_step(
        p_key, p_record, p_live, p_updated, p_notify, p_settings_group, p_settings,
        p_drop_all, p_drop_before, p_deals, p_idxs, p_seats, p_actions, p_hands,
        p_set_deadline, p_due_kind, p_due, p_kinds, p_payloads, p_created);
END $$;
"""

# Each step: one text for both back ends (the differing types as placeholders), or a
# pair (SQLite's text, PostgreSQL's text) for a step that is one back end's alone.
_STEPS: tuple[str | tuple[str, str], ...] = (
    # 1: the first schema
    """
    CREATE TABLE group_settings (
        group_key TEXT PRIMARY KEY,
        settings TEXT NOT NULL
    );
    CREATE TABLE tables (
        table_key TEXT PRIMARY KEY,
        record TEXT NOT NULL,
        live {boolean} NOT NULL DEFAULT {true},
        updated {real} NOT NULL DEFAULT 0
    );
    CREATE TABLE actions (
        table_key TEXT NOT NULL,
        deal_no INTEGER NOT NULL,
        idx INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        PRIMARY KEY (table_key, deal_no, idx)
    );
    CREATE TABLE hands (
        id {serial},
        group_key TEXT NOT NULL,
        table_key TEXT NOT NULL,
        deal_no INTEGER NOT NULL,
        record TEXT NOT NULL
    );
    CREATE INDEX hands_group ON hands (group_key);
    CREATE TABLE player_stats (
        group_key TEXT NOT NULL,
        user_id TEXT NOT NULL,
        name TEXT NOT NULL,
        hands INTEGER NOT NULL DEFAULT 0,
        firsts INTEGER NOT NULL DEFAULT 0,
        lasts INTEGER NOT NULL DEFAULT 0,
        points INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (group_key, user_id)
    );
    """,
    # 2: several workers — a version per table row, deadlines as rows, the outbox and
    # one sender lease per chat
    """
    ALTER TABLE tables ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE deadlines (
        table_key TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        due {real} NOT NULL
    );
    CREATE INDEX deadlines_due ON deadlines (due);
    CREATE TABLE outbox (
        id {serial},
        chat_key TEXT NOT NULL,
        msg_key TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        created {real} NOT NULL,
        state TEXT NOT NULL DEFAULT 'pending',
        attempts INTEGER NOT NULL DEFAULT 0,
        sent {real},
        result TEXT
    );
    CREATE INDEX outbox_unsent ON outbox (chat_key, id) WHERE state <> 'sent';
    CREATE INDEX outbox_sent ON outbox (chat_key, sent);
    CREATE TABLE chat_leases (
        chat_key TEXT PRIMARY KEY,
        holder TEXT NOT NULL,
        until {real} NOT NULL
    );
    """,
    # 3: adapters' small values (message ids, the group budget's recent calls) beside the
    # table, one row per name: writing one takes no table lock and moves no table version
    """
    CREATE TABLE table_meta (
        table_key TEXT NOT NULL,
        name TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (table_key, name)
    );
    """,
    # 4: a fencing token per chat lease: one up each time the lease changes hands (or
    # lapses), so a message is marked sent only by the sender that holds it now
    """
    ALTER TABLE chat_leases ADD COLUMN token INTEGER NOT NULL DEFAULT 0;
    """,
    # 5: a command's database work in two statements (PostgreSQL's functions)
    (_NOTHING_HERE, _COMMAND_FUNCTIONS),
    # 6: what any worker must be able to answer — who sits at which live table, and the
    # short-lived state of interactive messages (replay steppers, private settings menus)
    """
    CREATE TABLE table_players (
        user_id TEXT NOT NULL,
        table_key TEXT NOT NULL,
        PRIMARY KEY (user_id, table_key)
    );
    CREATE INDEX table_players_table ON table_players (table_key);
    CREATE TABLE interactions (
        key TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        value TEXT NOT NULL,
        step INTEGER NOT NULL DEFAULT 0,
        expires {real} NOT NULL
    );
    CREATE INDEX interactions_expires ON interactions (expires);
    """,
    # 7: a command in one statement when the worker's copy is current (PostgreSQL's)
    (_NOTHING_HERE, _CHECKED_WRITE),
    # 8: a platform's bot-wide call rate, shared by every worker (bot.cluster.ratebucket)
    """
    CREATE TABLE rate_buckets (
        name TEXT PRIMARY KEY,
        tokens {real} NOT NULL,
        at {real} NOT NULL
    );
    """,
)

SQLITE: tuple[str, ...] = tuple(
    step[0] if isinstance(step, tuple) else step.format(**_SQLITE_TYPES) for step in _STEPS
)
POSTGRES: tuple[str, ...] = tuple(
    step[1] if isinstance(step, tuple) else step.format(**_POSTGRES_TYPES) for step in _STEPS
)
