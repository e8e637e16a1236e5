-- Yinsh Lab self-play database, schema version 4 (PRAGMA user_version).
-- docs/schema.md explains every column. The build embeds this file in the
-- binary (cmake/embed.cmake): it is the only copy of the schema. A database
-- of an older version is upgraded in place to exactly this shape
-- (selfplay/store.c, UPGRADES).
CREATE TABLE run (
    id          INTEGER PRIMARY KEY,
    uid         TEXT    NOT NULL UNIQUE,
    name        TEXT    NOT NULL UNIQUE,
    command     TEXT    NOT NULL,
    version     TEXT    NOT NULL,
    host        TEXT    NOT NULL,
    seed        INTEGER NOT NULL,
    variant     TEXT    NOT NULL,
    white       TEXT    NOT NULL,
    black       TEXT    NOT NULL,
    games       INTEGER NOT NULL,
    threads     INTEGER NOT NULL,
    started_at  TEXT    NOT NULL,
    finished_at TEXT,
    kind        TEXT    NOT NULL DEFAULT 'selfplay',
    pairs       INTEGER NOT NULL DEFAULT 0,
    opening     TEXT    NOT NULL DEFAULT 'none',
    max_actions INTEGER NOT NULL DEFAULT 1000,
    white_weights TEXT,
    black_weights TEXT
);
CREATE TABLE game (
    id            INTEGER PRIMARY KEY,
    run_id        INTEGER NOT NULL REFERENCES run (id),
    idx           INTEGER NOT NULL,
    seed          INTEGER NOT NULL,
    variant       TEXT    NOT NULL,
    white         TEXT    NOT NULL,
    black         TEXT    NOT NULL,
    result        TEXT    NOT NULL,
    reason        TEXT    NOT NULL,
    actions       INTEGER NOT NULL,
    white_removed INTEGER NOT NULL,
    black_removed INTEGER NOT NULL,
    white_markers INTEGER NOT NULL,
    black_markers INTEGER NOT NULL,
    duration_ms   REAL    NOT NULL,
    stored_at     TEXT    NOT NULL,
    UNIQUE (run_id, idx)
);
CREATE INDEX game_by_agents ON game (white, black, variant);
CREATE INDEX game_by_result ON game (run_id, result, reason);
CREATE TABLE action (
    game_id       INTEGER NOT NULL REFERENCES game (id),
    ply           INTEGER NOT NULL,
    actor         TEXT    NOT NULL,
    state         TEXT    NOT NULL,
    action        TEXT    NOT NULL,
    legal         INTEGER NOT NULL,
    root_visits   INTEGER,
    chosen_visits INTEGER,
    value         REAL,
    time_us       INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
CREATE INDEX action_by_state ON action (state, actor);
CREATE TABLE lease (
    run_id      INTEGER PRIMARY KEY REFERENCES run (id),
    host        TEXT    NOT NULL,
    pid         INTEGER NOT NULL,
    pid_start   INTEGER NOT NULL,
    since       TEXT    NOT NULL
);
PRAGMA user_version = 4;
