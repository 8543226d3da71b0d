//! The arena's storage: an embedded SQLite database (WAL mode, migrated on open). It holds
//! accounts, hashed tokens, ratings, pending challenges, challenges declined for their terms,
//! games (setup, moves with the clock after each, result, status) and chat. The in-memory
//! state is a cache of it, rebuilt on start; every state change is written in one transaction
//! (see `state::journal`), and a request is answered only once it has committed.
//!
//! A server holds an exclusive lock on its database file for as long as it runs
//! ([`Store::open_exclusive`]): a second server on the same file stops at once. The command
//! line's account commands and backups open the file without that lock, beside a running
//! server (SQLite's own locking keeps their writes apart; the server reads their changes).
//!
//! This layer knows rows, not rules: the game logic rebuilds positions from the stored moves.

use std::path::{Path, PathBuf};

use rusqlite::{params, Connection, OptionalExtension};

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = 4;

const MIGRATIONS: [&str; 4] = [
    r#"
CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    username TEXT NOT NULL,
    bot INTEGER NOT NULL,
    admin INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
);
CREATE TABLE tokens (
    hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES accounts(id),
    scopes TEXT NOT NULL,
    description TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE TABLE ratings (
    user_id TEXT NOT NULL REFERENCES accounts(id),
    perf TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    games INTEGER NOT NULL,
    recent TEXT NOT NULL,
    PRIMARY KEY (user_id, perf)
);
CREATE TABLE challenges (
    id TEXT PRIMARY KEY,
    challenger TEXT NOT NULL,
    dest TEXT NOT NULL,
    params TEXT NOT NULL,
    json TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    variant_key TEXT NOT NULL,
    initial_fen TEXT,
    white TEXT NOT NULL,
    black TEXT NOT NULL,
    rated INTEGER NOT NULL,
    clock_initial INTEGER,
    clock_increment INTEGER,
    days INTEGER,
    source TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    status TEXT NOT NULL,
    winner TEXT,
    wtime INTEGER NOT NULL,
    btime INTEGER NOT NULL,
    last_move_at INTEGER NOT NULL,
    white_rating INTEGER,
    black_rating INTEGER,
    white_diff INTEGER,
    black_diff INTEGER
);
CREATE INDEX games_white ON games (white, created_at);
CREATE INDEX games_black ON games (black, created_at);
CREATE TABLE moves (
    game_id TEXT NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,
    uci TEXT NOT NULL,
    clock INTEGER NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE TABLE chat (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    room TEXT NOT NULL,
    username TEXT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"#,
    // 2: the browser pages: passwords (PHC strings of a memory-hard hash) and sign-in sessions
    // (only the SHA-256 of the cookie is kept).
    r#"
ALTER TABLE accounts ADD COLUMN password TEXT;
CREATE TABLE sessions (
    hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES accounts(id),
    csrf TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);
"#,
    // 3: moderation (disabled accounts) and a row the server writes to check that it can write.
    r#"
ALTER TABLE accounts ADD COLUMN disabled INTEGER NOT NULL DEFAULT 0;
CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
ALTER TABLE chat ADD COLUMN removed INTEGER NOT NULL DEFAULT 0;
"#,
    // 4: challenges declined for their terms (what the lobby says a bot does not play).
    r#"
CREATE TABLE declines (
    challenge_id TEXT PRIMARY KEY,
    dest TEXT NOT NULL,
    reason TEXT NOT NULL,
    variant_key TEXT NOT NULL,
    variant_name TEXT NOT NULL,
    clock_limit INTEGER,
    clock_increment INTEGER,
    days INTEGER,
    rated INTEGER NOT NULL,
    at INTEGER NOT NULL
);
CREATE INDEX declines_dest ON declines (dest, at);
"#,
];

/// Why the database cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Another process (a second arena server) holds the file's lock.
    #[error("{0} is in use by another arena server (it holds the file's lock): stop that server first, or give this one another database")]
    Locked(PathBuf),
    /// The file cannot be written (read-only file or folder, full disk...).
    #[error("{path} cannot be written: {cause}")]
    NotWritable {
        /// The database file.
        path: PathBuf,
        /// What SQLite or the system said.
        cause: String,
    },
    /// Opening, locking or migrating failed.
    #[error("{path}: {cause}")]
    Open {
        /// The database file.
        path: PathBuf,
        /// What went wrong.
        cause: String,
    },
}

/// Whether an error says the database cannot take a write (read-only, full, gone).
pub fn is_write_failure(e: &rusqlite::Error) -> bool {
    use rusqlite::ErrorCode as C;
    matches!(
        e.sqlite_error_code(),
        Some(C::ReadOnly | C::DiskFull | C::CannotOpen | C::PermissionDenied | C::SystemIoFailure)
    )
}

/// An account row.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AccountRow {
    /// Lower-case id.
    pub id: String,
    /// Display name.
    pub username: String,
    /// Bot account.
    pub bot: bool,
    /// May call the admin endpoints.
    pub admin: bool,
    /// ms since the epoch.
    pub created_at: u64,
    /// Disabled by a moderator: no sign-in, no token works, no games.
    pub disabled: bool,
}

/// A token row (the token itself is never stored, only its SHA-256).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenRow {
    /// Hex SHA-256 of the token.
    pub hash: String,
    /// Its account.
    pub user_id: String,
    /// Scopes, comma-separated as Lichess names them.
    pub scopes: String,
    /// What the token is for.
    pub description: String,
    /// ms since the epoch.
    pub created_at: u64,
}

/// A sign-in session row (the cookie itself is never stored, only its SHA-256).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionRow {
    /// Hex SHA-256 of the session cookie.
    pub hash: String,
    /// Its account.
    pub user_id: String,
    /// The CSRF token its forms and scripts must send.
    pub csrf: String,
    /// ms since the epoch.
    pub created_at: u64,
    /// ms since the epoch.
    pub expires_at: u64,
}

/// A rating row.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    /// Account id.
    pub user_id: String,
    /// Perf key.
    pub perf: String,
    /// The rating.
    pub rating: super::ratings::PerfRating,
}

/// A pending challenge: its parameters and its JSON (both as the arena wrote them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeRow {
    /// Challenge id.
    pub id: String,
    /// Challenger id.
    pub challenger: String,
    /// Challenged id.
    pub dest: String,
    /// The request's terms, JSON.
    pub params: String,
    /// The challenge JSON.
    pub json: String,
    /// ms since the epoch.
    pub created_at: u64,
}

/// A challenge declined for its terms (the lobby's "declined ..." of a bot).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeclineRow {
    /// The challenge's id.
    pub challenge_id: String,
    /// Who declined it.
    pub dest: String,
    /// Lichess's decline reason key (`variant`, `tooFast`, ...).
    pub reason: String,
    /// The variant's key as the API names it.
    pub variant_key: String,
    /// The variant's name.
    pub variant_name: String,
    /// Clock: initial time and increment, seconds.
    pub clock: Option<(u64, u64)>,
    /// Correspondence: days per move.
    pub days: Option<u32>,
    /// Rated.
    pub rated: bool,
    /// ms since the epoch.
    pub at: u64,
}

/// A game's setup and current state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameRow {
    /// Game id.
    pub id: String,
    /// The variant key of the API (`standard`, `fromPosition`, ...).
    pub variant_key: String,
    /// Start FEN when not the start position.
    pub initial_fen: Option<String>,
    /// White's id.
    pub white: String,
    /// Black's id.
    pub black: String,
    /// Rated.
    pub rated: bool,
    /// Clock: initial and increment, ms.
    pub clock: Option<(u64, u64)>,
    /// Correspondence days per move.
    pub days: Option<u32>,
    /// `friend` / `lobby`.
    pub source: String,
    /// ms since the epoch.
    pub created_at: u64,
    /// Status name.
    pub status: String,
    /// `white` / `black`.
    pub winner: Option<String>,
    /// Time left, ms (clock, or correspondence deadline; unlimited: 2^31 - 1).
    pub times: [i64; 2],
    /// ms since the epoch of the last change of turn.
    pub last_move_at: u64,
    /// Ratings at the start (rated or not), White then Black.
    pub ratings: [Option<i32>; 2],
    /// Rating changes after a rated game.
    pub rating_diffs: [Option<i32>; 2],
}

/// One move of a stored game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRow {
    /// UCI.
    pub uci: String,
    /// The mover's time left after the move, ms.
    pub clock: i64,
    /// ms since the epoch.
    pub at: u64,
}

/// One chat line of a stored game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatRow {
    /// `player` / `spectator`.
    pub room: String,
    /// Writer's display name.
    pub username: String,
    /// Text.
    pub text: String,
    /// Removed by a moderator (its text is wiped).
    pub removed: bool,
}

/// A game as stored: its row, its moves and its chat.
pub type StoredGame = (GameRow, Vec<MoveRow>, Vec<ChatRow>);

/// The database.
pub struct Store {
    conn: Connection,
    /// The open file whose exclusive lock a server holds while it runs (none: the command
    /// line, memory).
    _lock: Option<std::fs::File>,
    /// The file (none: in memory).
    path: Option<PathBuf>,
}

fn opt_u64(v: Option<i64>) -> Option<u64> {
    v.map(|v| v.max(0) as u64)
}

impl Store {
    /// Opens (creating and migrating) the database at `path`, without the server's lock (the
    /// command line, tests).
    pub fn open(path: &Path) -> rusqlite::Result<Store> {
        let mut store = Store::init(Connection::open(path)?)?;
        store.path = Some(path.to_path_buf());
        Ok(store)
    }

    /// Opens the database of a server: takes the file's exclusive lock (held until the store
    /// is dropped; refused at once when another server holds it), migrates, and checks that a
    /// transaction can be written and committed (a read-only file or folder, or a full disk,
    /// is refused here rather than found out by the first player).
    pub fn open_exclusive(path: &Path) -> Result<Store, StoreError> {
        let open_err = |cause: String| StoreError::Open {
            path: path.to_path_buf(),
            cause,
        };
        let not_writable = |cause: String| StoreError::NotWritable {
            path: path.to_path_buf(),
            cause,
        };
        // The lock is an advisory lock on the database file itself, so that every path to
        // the same file (links, relative names) meets it. SQLite's own locks are of another
        // kind and do not interfere.
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem => {
                    not_writable(e.to_string())
                }
                _ => open_err(e.to_string()),
            })?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => return Err(StoreError::Locked(path.to_path_buf())),
            Err(std::fs::TryLockError::Error(e)) => return Err(open_err(format!("locking it: {e}"))),
        }
        let conn = Connection::open(path).map_err(|e| open_err(e.to_string()))?;
        let mut store = Store::init(conn).map_err(|e| {
            if is_write_failure(&e) {
                not_writable(e.to_string())
            } else {
                open_err(e.to_string())
            }
        })?;
        store._lock = Some(file);
        store.path = Some(path.to_path_buf());
        store.probe().map_err(|e| not_writable(e.to_string()))?;
        Ok(store)
    }

    /// An in-memory database (tests).
    pub fn in_memory() -> rusqlite::Result<Store> {
        Store::init(Connection::open_in_memory()?)
    }

    fn init(conn: Connection) -> rusqlite::Result<Store> {
        // WAL: readers never block the writer; NORMAL sync is durable across a process kill
        // (only a power cut may lose the last transactions).
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        let mut store = Store {
            conn,
            _lock: None,
            path: None,
        };
        store.migrate()?;
        Ok(store)
    }

    /// The file, if not in memory.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    // ---- units of work ----

    /// Starts the transaction of a unit of work (taking the write lock now, so that its
    /// writes cannot meet a busy database halfway).
    pub fn begin(&self) -> rusqlite::Result<()> {
        self.conn.prepare_cached("BEGIN IMMEDIATE")?.execute([]).map(|_| ())
    }

    /// Commits the unit's transaction.
    pub fn commit(&self) -> rusqlite::Result<()> {
        self.conn.prepare_cached("COMMIT")?.execute([]).map(|_| ())
    }

    /// Undoes the unit's transaction (if SQLite has not already).
    pub fn rollback(&self) {
        if !self.conn.is_autocommit() {
            if let Err(e) = self.conn.execute_batch("ROLLBACK") {
                tracing::warn!("arena database: rollback: {e}");
            }
        }
    }

    /// Writes a row of its own: first 8 KiB (so that the file must have room to grow, as a
    /// full disk or a size limit would refuse), then only the time. Changes nothing else.
    pub fn touch(&self) -> rusqlite::Result<()> {
        let mut st = self.conn.prepare_cached(
            "INSERT INTO meta (key, value) VALUES ('probe', ?1) ON CONFLICT (key) DO UPDATE SET value = ?1",
        )?;
        st.execute(params!["x".repeat(8192)])?;
        st.execute(params![super::clock::now_ms().to_string()])?;
        Ok(())
    }

    /// Writes and commits a row of its own: whether the database takes writes now.
    pub fn probe(&self) -> rusqlite::Result<()> {
        self.begin()?;
        let written = self.touch().and_then(|()| self.commit());
        if written.is_err() {
            self.rollback();
        }
        written
    }

    /// Limits the file to `pages` pages (SQLite's `max_page_count`): writes beyond answer
    /// "database or disk is full", exactly as a full disk does. For tests of that case.
    pub fn set_page_limit(&self, pages: u64) -> rusqlite::Result<u64> {
        self.conn
            .query_row(&format!("PRAGMA max_page_count = {pages}"), [], |r| r.get::<_, i64>(0))
            .map(|n| n.max(0) as u64)
    }

    /// A number that changes whenever another connection (the command line) commits a change
    /// to the file.
    pub fn data_version(&self) -> rusqlite::Result<i64> {
        self.conn.pragma_query_value(None, "data_version", |r| r.get(0))
    }

    /// A consistent copy of the database at `to` while it is in use (`VACUUM INTO`); `to`
    /// must not exist.
    pub fn backup_to(&self, to: &Path) -> rusqlite::Result<()> {
        let target = to.to_string_lossy().to_string();
        self.conn.execute("VACUUM INTO ?1", params![target]).map(|_| ())
    }

    /// The schema version of the file.
    pub fn version(&self) -> rusqlite::Result<i64> {
        self.conn.pragma_query_value(None, "user_version", |r| r.get(0))
    }

    fn migrate(&mut self) -> rusqlite::Result<()> {
        let version = self.version()?;
        if version > SCHEMA_VERSION {
            return Err(rusqlite::Error::InvalidParameterName(format!(
                "the database has schema version {version}, newer than this build's {SCHEMA_VERSION}"
            )));
        }
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(version.max(0) as usize) {
            let tx = self.conn.transaction()?;
            tx.execute_batch(sql)?;
            tx.pragma_update(None, "user_version", (i + 1) as i64)?;
            tx.commit()?;
        }
        Ok(())
    }

    // ---- accounts and tokens ----

    /// Adds an account (an existing id is left as it is; returns whether it was added).
    pub fn add_account(&self, a: &AccountRow) -> rusqlite::Result<bool> {
        let n = self.conn.execute(
            "INSERT OR IGNORE INTO accounts (id, username, bot, admin, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![a.id, a.username, a.bot, a.admin, a.created_at as i64],
        )?;
        Ok(n == 1)
    }

    /// Marks an account as a bot.
    pub fn set_bot(&self, id: &str) -> rusqlite::Result<()> {
        self.conn
            .execute("UPDATE accounts SET bot = 1 WHERE id = ?1", params![id])
            .map(|_| ())
    }

    /// Disables or enables an account; whether it exists.
    pub fn set_disabled(&self, id: &str, disabled: bool) -> rusqlite::Result<bool> {
        Ok(self
            .conn
            .execute("UPDATE accounts SET disabled = ?2 WHERE id = ?1", params![id, disabled])?
            == 1)
    }

    /// Every account.
    pub fn accounts(&self) -> rusqlite::Result<Vec<AccountRow>> {
        let mut st = self
            .conn
            .prepare("SELECT id, username, bot, admin, created_at, disabled FROM accounts ORDER BY id")?;
        let rows = st.query_map([], |r| {
            Ok(AccountRow {
                id: r.get(0)?,
                username: r.get(1)?,
                bot: r.get(2)?,
                admin: r.get(3)?,
                created_at: r.get::<_, i64>(4)?.max(0) as u64,
                disabled: r.get(5)?,
            })
        })?;
        rows.collect()
    }

    /// Adds a token.
    pub fn add_token(&self, t: &TokenRow) -> rusqlite::Result<()> {
        self.conn
            .execute(
                "INSERT OR REPLACE INTO tokens (hash, user_id, scopes, description, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![t.hash, t.user_id, t.scopes, t.description, t.created_at as i64],
            )
            .map(|_| ())
    }

    /// Removes a token; returns whether it existed.
    pub fn revoke_token(&self, hash: &str) -> rusqlite::Result<bool> {
        Ok(self.conn.execute("DELETE FROM tokens WHERE hash = ?1", params![hash])? == 1)
    }

    /// One token by its hash, with its account.
    pub fn token(&self, hash: &str) -> rusqlite::Result<Option<(TokenRow, AccountRow)>> {
        self.conn
            .query_row(
                "SELECT t.hash, t.user_id, t.scopes, t.description, t.created_at, a.username, a.bot, a.admin, a.created_at,
                    a.disabled
                 FROM tokens t JOIN accounts a ON a.id = t.user_id WHERE t.hash = ?1",
                params![hash],
                |r| {
                    Ok((
                        TokenRow {
                            hash: r.get(0)?,
                            user_id: r.get(1)?,
                            scopes: r.get(2)?,
                            description: r.get(3)?,
                            created_at: r.get::<_, i64>(4)?.max(0) as u64,
                        },
                        AccountRow {
                            id: r.get(1)?,
                            username: r.get(5)?,
                            bot: r.get(6)?,
                            admin: r.get(7)?,
                            created_at: r.get::<_, i64>(8)?.max(0) as u64,
                            disabled: r.get(9)?,
                        },
                    ))
                },
            )
            .optional()
    }

    /// The sessions' cookie hashes.
    pub fn session_hashes(&self) -> rusqlite::Result<Vec<String>> {
        let mut st = self.conn.prepare("SELECT hash FROM sessions")?;
        let rows = st.query_map([], |r| r.get(0))?;
        rows.collect()
    }

    /// Every token.
    pub fn tokens(&self) -> rusqlite::Result<Vec<TokenRow>> {
        let mut st = self
            .conn
            .prepare("SELECT hash, user_id, scopes, description, created_at FROM tokens ORDER BY created_at")?;
        let rows = st.query_map([], |r| {
            Ok(TokenRow {
                hash: r.get(0)?,
                user_id: r.get(1)?,
                scopes: r.get(2)?,
                description: r.get(3)?,
                created_at: r.get::<_, i64>(4)?.max(0) as u64,
            })
        })?;
        rows.collect()
    }

    /// Sets the password hash (a PHC string) of an account.
    pub fn set_password(&self, id: &str, phc: &str) -> rusqlite::Result<()> {
        self.conn
            .execute("UPDATE accounts SET password = ?2 WHERE id = ?1", params![id, phc])
            .map(|_| ())
    }

    /// The password hash of an account, if it has one.
    pub fn password(&self, id: &str) -> rusqlite::Result<Option<String>> {
        Ok(self
            .conn
            .query_row("SELECT password FROM accounts WHERE id = ?1", params![id], |r| {
                r.get::<_, Option<String>>(0)
            })
            .optional()?
            .flatten())
    }

    // ---- sessions ----

    /// Stores a sign-in session.
    pub fn add_session(&self, row: &SessionRow) -> rusqlite::Result<()> {
        self.conn
            .execute(
                "INSERT OR REPLACE INTO sessions (hash, user_id, csrf, created_at, expires_at) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![row.hash, row.user_id, row.csrf, row.created_at as i64, row.expires_at as i64],
            )
            .map(|_| ())
    }

    /// One session by the hash of its cookie.
    pub fn session(&self, hash: &str) -> rusqlite::Result<Option<SessionRow>> {
        self.conn
            .query_row(
                "SELECT hash, user_id, csrf, created_at, expires_at FROM sessions WHERE hash = ?1",
                params![hash],
                |r| {
                    Ok(SessionRow {
                        hash: r.get(0)?,
                        user_id: r.get(1)?,
                        csrf: r.get(2)?,
                        created_at: r.get::<_, i64>(3)?.max(0) as u64,
                        expires_at: r.get::<_, i64>(4)?.max(0) as u64,
                    })
                },
            )
            .optional()
    }

    /// Ends a session (log out).
    pub fn remove_session(&self, hash: &str) -> rusqlite::Result<()> {
        self.conn
            .execute("DELETE FROM sessions WHERE hash = ?1", params![hash])
            .map(|_| ())
    }

    /// Ends every session of an account.
    pub fn remove_sessions_of(&self, user: &str) -> rusqlite::Result<()> {
        self.conn
            .execute("DELETE FROM sessions WHERE user_id = ?1", params![user])
            .map(|_| ())
    }

    /// Forgets the sessions expired at `now` (ms since the epoch).
    pub fn remove_expired_sessions(&self, now: u64) -> rusqlite::Result<usize> {
        self.conn
            .execute("DELETE FROM sessions WHERE expires_at <= ?1", params![now as i64])
    }

    // ---- ratings ----

    /// Writes one perf of one player.
    pub fn set_rating(&self, row: &RatingRow) -> rusqlite::Result<()> {
        let recent: Vec<String> = row.rating.recent.iter().map(i32::to_string).collect();
        self.conn
            .execute(
                "INSERT OR REPLACE INTO ratings (user_id, perf, rating, deviation, volatility, games, recent)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    row.user_id,
                    row.perf,
                    row.rating.rating,
                    row.rating.deviation,
                    row.rating.volatility,
                    row.rating.games,
                    recent.join(",")
                ],
            )
            .map(|_| ())
    }

    /// Every rating.
    pub fn ratings(&self) -> rusqlite::Result<Vec<RatingRow>> {
        let mut st = self
            .conn
            .prepare("SELECT user_id, perf, rating, deviation, volatility, games, recent FROM ratings")?;
        let rows = st.query_map([], |r| {
            let recent: String = r.get(6)?;
            Ok(RatingRow {
                user_id: r.get(0)?,
                perf: r.get(1)?,
                rating: super::ratings::PerfRating {
                    rating: r.get(2)?,
                    deviation: r.get(3)?,
                    volatility: r.get(4)?,
                    games: r.get(5)?,
                    recent: recent.split(',').filter_map(|x| x.parse().ok()).collect(),
                },
            })
        })?;
        rows.collect()
    }

    // ---- challenges ----

    /// Stores a pending challenge.
    pub fn add_challenge(&self, c: &ChallengeRow) -> rusqlite::Result<()> {
        self.conn
            .execute(
                "INSERT OR REPLACE INTO challenges (id, challenger, dest, params, json, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![c.id, c.challenger, c.dest, c.params, c.json, c.created_at as i64],
            )
            .map(|_| ())
    }

    /// Forgets a challenge (accepted, declined, canceled or expired).
    pub fn remove_challenge(&self, id: &str) -> rusqlite::Result<()> {
        self.conn
            .execute("DELETE FROM challenges WHERE id = ?1", params![id])
            .map(|_| ())
    }

    /// The pending challenges.
    pub fn challenges(&self) -> rusqlite::Result<Vec<ChallengeRow>> {
        let mut st = self
            .conn
            .prepare("SELECT id, challenger, dest, params, json, created_at FROM challenges ORDER BY created_at")?;
        let rows = st.query_map([], |r| {
            Ok(ChallengeRow {
                id: r.get(0)?,
                challenger: r.get(1)?,
                dest: r.get(2)?,
                params: r.get(3)?,
                json: r.get(4)?,
                created_at: r.get::<_, i64>(5)?.max(0) as u64,
            })
        })?;
        rows.collect()
    }

    // ---- declines ----

    /// Keeps a challenge declined for its terms.
    pub fn add_decline(&self, d: &DeclineRow) -> rusqlite::Result<()> {
        self.conn
            .execute(
                "INSERT OR REPLACE INTO declines (challenge_id, dest, reason, variant_key, variant_name, clock_limit,
                    clock_increment, days, rated, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                params![
                    d.challenge_id,
                    d.dest,
                    d.reason,
                    d.variant_key,
                    d.variant_name,
                    d.clock.map(|c| c.0 as i64),
                    d.clock.map(|c| c.1 as i64),
                    d.days,
                    d.rated,
                    d.at as i64
                ],
            )
            .map(|_| ())
    }

    /// The declines kept, oldest first.
    pub fn declines(&self) -> rusqlite::Result<Vec<DeclineRow>> {
        let mut st = self.conn.prepare(
            "SELECT challenge_id, dest, reason, variant_key, variant_name, clock_limit, clock_increment, days, rated, at
             FROM declines ORDER BY at",
        )?;
        let rows = st.query_map([], |r| {
            let limit: Option<i64> = r.get(5)?;
            let inc: Option<i64> = r.get(6)?;
            Ok(DeclineRow {
                challenge_id: r.get(0)?,
                dest: r.get(1)?,
                reason: r.get(2)?,
                variant_key: r.get(3)?,
                variant_name: r.get(4)?,
                clock: limit.zip(inc).map(|(l, i)| (l.max(0) as u64, i.max(0) as u64)),
                days: r.get(7)?,
                rated: r.get(8)?,
                at: r.get::<_, i64>(9)?.max(0) as u64,
            })
        })?;
        rows.collect()
    }

    // ---- games ----

    /// Writes a game: its row, its moves from ply `stored_plies` on (earlier moves beyond
    /// `moves.len()` are deleted: a takeback), in one transaction.
    pub fn save_game(&mut self, g: &GameRow, moves: &[MoveRow], stored_plies: usize) -> rusqlite::Result<()> {
        // Inside a unit's transaction the rows are written as part of it; alone, in a
        // transaction of their own.
        if self.conn.is_autocommit() {
            let tx = self.conn.transaction()?;
            Store::write_game(&tx, g, moves, stored_plies)?;
            tx.commit()
        } else {
            Store::write_game(&self.conn, g, moves, stored_plies)
        }
    }

    fn write_game(conn: &Connection, g: &GameRow, moves: &[MoveRow], stored_plies: usize) -> rusqlite::Result<()> {
        let tx = conn;
        tx.execute(
            "INSERT INTO games (id, variant_key, initial_fen, white, black, rated, clock_initial, clock_increment,
                days, source, created_at, status, winner, wtime, btime, last_move_at, white_rating, black_rating,
                white_diff, black_diff)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)
             ON CONFLICT (id) DO UPDATE SET status = ?12, winner = ?13, wtime = ?14, btime = ?15,
                last_move_at = ?16, white_diff = ?19, black_diff = ?20",
            params![
                g.id,
                g.variant_key,
                g.initial_fen,
                g.white,
                g.black,
                g.rated,
                g.clock.map(|c| c.0 as i64),
                g.clock.map(|c| c.1 as i64),
                g.days,
                g.source,
                g.created_at as i64,
                g.status,
                g.winner,
                g.times[0],
                g.times[1],
                g.last_move_at as i64,
                g.ratings[0],
                g.ratings[1],
                g.rating_diffs[0],
                g.rating_diffs[1],
            ],
        )?;
        if moves.len() < stored_plies {
            tx.execute(
                "DELETE FROM moves WHERE game_id = ?1 AND ply > ?2",
                params![g.id, moves.len() as i64],
            )?;
        }
        {
            let mut st = tx.prepare_cached(
                "INSERT OR REPLACE INTO moves (game_id, ply, uci, clock, at) VALUES (?1, ?2, ?3, ?4, ?5)",
            )?;
            for (i, m) in moves.iter().enumerate().skip(stored_plies) {
                st.execute(params![g.id, (i + 1) as i64, m.uci, m.clock, m.at as i64])?;
            }
        }
        Ok(())
    }

    /// Removes a chat line (a moderator): its text is wiped, its place kept.
    pub fn remove_chat(&self, game: &str, seq: usize) -> rusqlite::Result<()> {
        self.conn
            .execute(
                "UPDATE chat SET removed = 1, text = '' WHERE game_id = ?1 AND seq = ?2",
                params![game, seq as i64],
            )
            .map(|_| ())
    }

    /// Adds a chat line.
    pub fn add_chat(&self, game: &str, seq: usize, line: &ChatRow) -> rusqlite::Result<()> {
        self.conn
            .execute(
                "INSERT OR REPLACE INTO chat (game_id, seq, room, username, text, removed) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![game, seq as i64, line.room, line.username, line.text, line.removed],
            )
            .map(|_| ())
    }

    fn game_of(r: &rusqlite::Row<'_>) -> rusqlite::Result<GameRow> {
        let clock = match (r.get::<_, Option<i64>>(6)?, r.get::<_, Option<i64>>(7)?) {
            (Some(i), Some(inc)) => Some((i.max(0) as u64, inc.max(0) as u64)),
            _ => None,
        };
        Ok(GameRow {
            id: r.get(0)?,
            variant_key: r.get(1)?,
            initial_fen: r.get(2)?,
            white: r.get(3)?,
            black: r.get(4)?,
            rated: r.get(5)?,
            clock,
            days: r.get(8)?,
            source: r.get(9)?,
            created_at: r.get::<_, i64>(10)?.max(0) as u64,
            status: r.get(11)?,
            winner: r.get(12)?,
            times: [r.get(13)?, r.get(14)?],
            last_move_at: opt_u64(r.get(15)?).unwrap_or(0),
            ratings: [r.get(16)?, r.get(17)?],
            rating_diffs: [r.get(18)?, r.get(19)?],
        })
    }

    const GAME_COLUMNS: &'static str =
        "id, variant_key, initial_fen, white, black, rated, clock_initial, clock_increment,
        days, source, created_at, status, winner, wtime, btime, last_move_at, white_rating, black_rating, white_diff,
        black_diff";

    /// Every game with its moves and chat, oldest first.
    pub fn games(&self) -> rusqlite::Result<Vec<StoredGame>> {
        let mut st = self.conn.prepare(&format!(
            "SELECT {} FROM games ORDER BY created_at, id",
            Store::GAME_COLUMNS
        ))?;
        let games: Vec<GameRow> = st.query_map([], Store::game_of)?.collect::<rusqlite::Result<_>>()?;
        let mut moves_st = self
            .conn
            .prepare("SELECT uci, clock, at FROM moves WHERE game_id = ?1 ORDER BY ply")?;
        let mut chat_st = self
            .conn
            .prepare("SELECT room, username, text, removed FROM chat WHERE game_id = ?1 ORDER BY seq")?;
        let mut out = Vec::with_capacity(games.len());
        for g in games {
            let moves = moves_st
                .query_map(params![g.id], |r| {
                    Ok(MoveRow {
                        uci: r.get(0)?,
                        clock: r.get(1)?,
                        at: r.get::<_, i64>(2)?.max(0) as u64,
                    })
                })?
                .collect::<rusqlite::Result<_>>()?;
            let chat = chat_st
                .query_map(params![g.id], |r| {
                    Ok(ChatRow {
                        room: r.get(0)?,
                        username: r.get(1)?,
                        text: r.get(2)?,
                        removed: r.get(3)?,
                    })
                })?
                .collect::<rusqlite::Result<_>>()?;
            out.push((g, moves, chat));
        }
        Ok(out)
    }

    /// One game's row, if stored.
    pub fn game(&self, id: &str) -> rusqlite::Result<Option<GameRow>> {
        self.conn
            .query_row(
                &format!("SELECT {} FROM games WHERE id = ?1", Store::GAME_COLUMNS),
                params![id],
                Store::game_of,
            )
            .optional()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: &str) -> GameRow {
        GameRow {
            id: id.into(),
            variant_key: "persian-princess".into(),
            white: "a".into(),
            black: "b".into(),
            clock: Some((60_000, 1_000)),
            source: "friend".into(),
            status: "started".into(),
            times: [60_000, 60_000],
            ratings: [Some(1500), None],
            ..GameRow::default()
        }
    }

    fn mv(uci: &str, clock: i64) -> MoveRow {
        MoveRow {
            uci: uci.into(),
            clock,
            at: 1,
        }
    }

    #[test]
    fn rows_round_trip_and_takebacks_delete_moves() {
        let mut s = Store::in_memory().expect("opens");
        assert_eq!(s.version().expect("version"), SCHEMA_VERSION);
        for id in ["a", "b"] {
            let added = s
                .add_account(&AccountRow {
                    id: id.into(),
                    username: id.to_uppercase(),
                    bot: id == "a",
                    admin: false,
                    created_at: 5,
                    disabled: false,
                })
                .expect("account");
            assert!(added);
        }
        assert!(!s
            .add_account(&AccountRow {
                id: "a".into(),
                username: "again".into(),
                bot: false,
                admin: false,
                created_at: 6,
                disabled: false,
            })
            .expect("ignored"));
        s.set_bot("b").expect("bot");
        let accounts = s.accounts().expect("accounts");
        assert_eq!(accounts.len(), 2);
        assert!(accounts.iter().all(|a| a.bot));
        assert_eq!(accounts[0].username, "A");

        let mut g = game("g1");
        let moves = vec![mv("e3e4", 59_000), mv("e7e6", 58_000), mv("d3d4", 57_000)];
        s.save_game(&g, &moves, 0).expect("saved");
        g.status = "resign".into();
        g.winner = Some("white".into());
        g.times = [57_000, 58_000];
        s.save_game(&g, &moves[..1], 3).expect("takeback then end");
        let all = s.games().expect("games");
        assert_eq!(all.len(), 1);
        let (row, stored, chat) = &all[0];
        assert_eq!(row, &g);
        assert_eq!(stored, &moves[..1]);
        assert!(chat.is_empty());
        s.add_chat(
            "g1",
            0,
            &ChatRow {
                room: "player".into(),
                username: "A".into(),
                text: "hi".into(),
                removed: false,
            },
        )
        .expect("chat");
        assert_eq!(s.games().expect("games")[0].2.len(), 1);
        assert_eq!(s.game("g1").expect("query").map(|g| g.status), Some("resign".into()));
        assert_eq!(s.game("none").expect("query"), None);
    }

    #[test]
    fn a_file_is_migrated_once_and_reopened() {
        let dir = std::env::temp_dir().join(format!("arena-store-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("arena.sqlite");
        {
            let s = Store::open(&path).expect("created");
            s.add_account(&AccountRow {
                id: "x".into(),
                username: "X".into(),
                bot: false,
                admin: true,
                created_at: 1,
                disabled: false,
            })
            .expect("account");
        }
        let s = Store::open(&path).expect("reopened");
        assert_eq!(s.version().expect("version"), SCHEMA_VERSION);
        assert_eq!(s.accounts().expect("accounts").len(), 1);
        drop(s);
        // A newer schema than this build knows is refused, not overwritten.
        let conn = Connection::open(&path).expect("raw");
        conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
            .expect("bump");
        drop(conn);
        let err = Store::open(&path).err().expect("refused");
        assert!(err.to_string().contains("newer"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_version_1_file_gains_passwords_and_sessions() {
        let dir = std::env::temp_dir().join(format!("arena-store-v1-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("arena.sqlite");
        {
            let conn = Connection::open(&path).expect("raw");
            conn.execute_batch(MIGRATIONS[0]).expect("schema 1");
            conn.pragma_update(None, "user_version", 1).expect("version 1");
            conn.execute(
                "INSERT INTO accounts (id, username, bot, admin, created_at) VALUES ('old', 'Old', 0, 0, 5)",
                [],
            )
            .expect("account");
        }
        let s = Store::open(&path).expect("migrated");
        assert_eq!(s.version().expect("version"), SCHEMA_VERSION);
        assert_eq!(s.accounts().expect("accounts")[0].username, "Old");
        assert!(!s.accounts().expect("accounts")[0].disabled);
        assert_eq!(s.password("old").expect("read"), None);
        s.set_password("old", "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA")
            .expect("set");
        assert_eq!(
            s.password("old").expect("read").as_deref(),
            Some("$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA")
        );
        let row = SessionRow {
            hash: "h".into(),
            user_id: "old".into(),
            csrf: "c".into(),
            created_at: 10,
            expires_at: 20,
        };
        s.add_session(&row).expect("session");
        assert_eq!(s.session("h").expect("read"), Some(row));
        assert_eq!(s.remove_expired_sessions(19).expect("prune"), 0);
        assert_eq!(s.remove_expired_sessions(20).expect("prune"), 1);
        assert_eq!(s.session("h").expect("read"), None);
        // Version 4: declines.
        let d = DeclineRow {
            challenge_id: "c1".into(),
            dest: "old".into(),
            reason: "variant".into(),
            variant_key: "citadel-9".into(),
            variant_name: "Citadel 9x9".into(),
            clock: Some((60, 1)),
            days: None,
            rated: true,
            at: 7,
        };
        s.add_decline(&d).expect("decline");
        assert_eq!(s.declines().expect("read"), vec![d]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
