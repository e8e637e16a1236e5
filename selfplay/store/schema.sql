-- Yinsh Lab self-play database, schema version 9 (PRAGMA user_version).
-- docs/schema.md explains every column. The build embeds this file in the
-- binary (cmake/embed.cmake): it is the only copy of the schema. A database
-- of an older version is upgraded in place to exactly this shape
-- (selfplay/store/store.c, UPGRADES).
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
    black_weights TEXT,
    plan_ident  TEXT,
    repeat_of   INTEGER,
    git_commit  TEXT,
    compiler    TEXT,
    machine     TEXT,
    controls    TEXT    NOT NULL DEFAULT '',
    visits      INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX run_by_plan ON run (plan_ident);
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
    ident         TEXT,
    repeat        INTEGER NOT NULL DEFAULT 0,
    UNIQUE (run_id, idx)
);
CREATE INDEX game_by_ident ON game (ident);
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
    clock_us      INTEGER,
    root_value    REAL,
    full          INTEGER,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
CREATE INDEX action_by_state ON action (state, actor);
-- With run.visits = 1: the root visit distribution of every MCTS action,
-- one row per root child with at least one visit (docs/schema.md).
CREATE TABLE action_visits (
    game_id       INTEGER NOT NULL REFERENCES game (id),
    ply           INTEGER NOT NULL,
    action        TEXT    NOT NULL,
    visits        INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply, action)
) WITHOUT ROWID;
CREATE TABLE lease (
    run_id      INTEGER PRIMARY KEY REFERENCES run (id),
    host        TEXT    NOT NULL,
    pid         INTEGER NOT NULL,
    pid_start   INTEGER NOT NULL,
    since       TEXT    NOT NULL
);
-- White's score per game and the simulation counts of the agents
-- (canonical specs start `mcts:sims=N,`; random play has none).
CREATE VIEW game_score AS
SELECT g.id AS game_id, r.name AS run, r.kind AS kind, g.idx AS idx, g.variant AS variant,
       g.white AS white, g.black AS black,
       CASE WHEN g.white LIKE 'mcts:sims=%' THEN CAST(substr(g.white, 11) AS INTEGER) END AS white_sims,
       CASE WHEN g.black LIKE 'mcts:sims=%' THEN CAST(substr(g.black, 11) AS INTEGER) END AS black_sims,
       CASE g.result WHEN 'white' THEN 1.0 WHEN 'draw' THEN 0.5 ELSE 0.0 END AS white_score,
       g.result AS result, g.reason AS reason, g.actions AS actions, g.repeat AS repeat
  FROM game g JOIN run r ON r.id = g.run_id;
-- One row per run: its plan, the games stored (repeats apart) and White's
-- mean score over them.
CREATE VIEW run_summary AS
SELECT r.name AS run, r.kind AS kind, r.variant AS variant, r.white AS white, r.black AS black, r.seed AS seed,
       r.games AS games, count(s.game_id) - coalesce(sum(s.repeat), 0) AS stored,
       coalesce(sum(s.repeat), 0) AS repeats,
       avg(CASE WHEN s.repeat = 0 THEN s.white_score END) AS white_score,
       r.finished_at IS NOT NULL AS finished, r.command AS command
  FROM run r LEFT JOIN game_score s ON s.run = r.name
 GROUP BY r.id;
PRAGMA user_version = 9;
