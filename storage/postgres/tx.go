package postgres

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
)

// tx is a storage.Tx and storage.LeaseTx of the PostgreSQL backend. In a
// write transaction, what it reads to change is locked (FOR UPDATE) until
// the end. It sends its statements as pipeline.go says.
type tx struct {
	ctx     context.Context // the transaction's: every statement runs with it
	conn    *pgxpool.Conn
	write   bool
	pending *pgx.Batch // statements not sent yet
	begun   bool       // BEGIN was sent
	// committing: the COMMIT is queued, and may reach the server with
	// the next send.
	committing bool
	// lost: a send failed before anything could be committed, for a
	// connection that broke (see send); the transaction may succeed on
	// another.
	lost bool
	err  error // the error of a batch of writes sent by exec
	// missing are the settings a write read and found not stored (by
	// table and ID): putting them inserts, so that a concurrent first
	// write of the same settings is a conflict, never a lost update.
	missing map[string]bool
	// games are the channels whose game this write read, and so locked,
	// and did not delete: a PutGame of one is no start and updates it,
	// any other is a start (see PutGame).
	games map[string]bool
	// challenges are the channels whose challenge this write read, and
	// so locked, and did not delete: a PutChallenge of one updates it,
	// any other is a start (see PutChallenge).
	challenges map[string]bool
	// bands are the changes to the ladders' band counts (moveBand), which
	// the commit writes last, in the bands' order (writeBands).
	bands map[bandRow]int64
}

// bandRow names a row of rank_bands.
type bandRow struct {
	guild  string
	season int32
	ladder int16
	band   string
}

// lock returns the clause that locks the rows a write reads.
func (t *tx) lock() string {
	if t.write {
		return " FOR UPDATE"
	}
	return ""
}

// kinds of the rows of the table active.
const (
	kindGame      = int16(storage.WakeGame)
	kindChallenge = int16(storage.WakeChallenge)
)

// wakeAt returns the wake_at of a row: t in Unix nanoseconds, NULL for
// no wake.
func wakeAt(t time.Time) *int64 {
	if t.IsZero() {
		return nil
	}
	n := storage.UnixNano(t)
	return &n
}

// notFound wraps storage.ErrNotFound for what if err says no row, else
// returns err.
func notFound(err error, what string) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("%s: %w", what, storage.ErrNotFound)
	}
	return err
}

// decodeGame decodes a game stored as data with the board message board.
func decodeGame(data, board string) (*storage.Game, time.Time, error) {
	g, wake, err := storage.DecodeGame([]byte(data))
	if err != nil {
		return nil, time.Time{}, err
	}
	if board != "" {
		g.Noted(board)
	}
	return g, wake, nil
}

// Game implements storage.Tx.
func (t *tx) Game(channel string) (*storage.Game, time.Time, error) {
	var data, board string
	err := t.queryRow(`SELECT data, board_message FROM active WHERE channel = $1 AND kind = $2`+t.lock(),
		channel, kindGame).Scan(&data, &board)
	if err != nil {
		return nil, time.Time{}, notFound(err, "game")
	}
	g, wake, err := decodeGame(data, board)
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("game: %w", err)
	}
	t.locked(channel)
	return g, wake, nil
}

// locked notes, in a write, that the game of channel is read and locked.
func (t *tx) locked(channel string) { t.games = t.note(t.games, channel) }

// note returns rows (t.games or t.challenges) with channel added, in a
// write: its row of active is read and locked.
func (t *tx) note(rows map[string]bool, channel string) map[string]bool {
	if !t.write {
		return rows
	}
	if rows == nil {
		rows = map[string]bool{}
	}
	rows[channel] = true
	return rows
}

// guildStripes is how many rows of guild_games keep the count of a
// guild's active games: a game counts in the row of its ID mod
// guildStripes (the migration of guild_games uses the same number).
const guildStripes = 16

// PutGame implements storage.Tx. The wake is a column of the game's row,
// so the old one needs no removing. A game put in a channel whose game
// this write did not read (a start) is inserted, never upserted, and
// counted in guild_games by the same statement: a concurrent start in the
// channel that committed first makes the insert fail (unique_violation),
// and the transaction, run again, finds the channel taken; so a start
// never replaces a game it did not see, nor counts one that another
// start counted. The row names the people who play the game (red_user,
// black_user: see PlayerGames), which the same statement sets.
func (t *tx) PutGame(g *storage.Game, _ time.Time) error {
	data, err := storage.EncodeGame(g)
	if err != nil {
		return err
	}
	users := storage.PlayerUsers(g.Players())
	red, black := orNull(users[0]), orNull(users[1])
	if t.games[g.ChannelID] { // a game read and locked: the same row, and no start
		t.exec(`UPDATE active SET id = $2, guild = $3, ply = $4, board_message = $5, wake_at = $6, noted_wake = $7, data = $8,
				red_user = $10, black_user = $11
			WHERE channel = $1 AND kind = $9`,
			g.ChannelID, int64(g.ID), g.GuildID, g.Ply(), g.BoardMessageID, wakeAt(g.Wake()), wakeAt(g.NotedWake()), string(data), kindGame,
			red, black)
		return nil
	}
	t.exec(`WITH put AS (INSERT INTO active (channel, kind, id, guild, ply, board_message, wake_at, noted_wake, data, red_user, black_user)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $11, $12))
		INSERT INTO guild_games (guild, stripe, n) VALUES ($4, $10, 1)
			ON CONFLICT (guild, stripe) DO UPDATE SET n = guild_games.n + 1`,
		g.ChannelID, kindGame, int64(g.ID), g.GuildID, g.Ply(), g.BoardMessageID, wakeAt(g.Wake()), wakeAt(g.NotedWake()), string(data),
		int16(g.ID%guildStripes), red, black)
	return nil
}

// orNull returns s, or nil (NULL) if s is "".
func orNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// DeleteGame implements storage.Tx: the game deleted, if any, leaves the
// count of its guild in the same statement.
func (t *tx) DeleteGame(channel string, _ time.Time) error {
	delete(t.games, channel)
	t.exec(`WITH gone AS (DELETE FROM active WHERE channel = $1 AND kind = $2 RETURNING guild, id)
		UPDATE guild_games SET n = guild_games.n - 1 FROM gone
		WHERE guild_games.guild = gone.guild AND guild_games.stripe = gone.id % $3`, channel, kindGame, guildStripes)
	return nil
}

// games calls fn with the games that rows (data, board_message) hold.
func games(rows pgx.Rows, fn func(g *storage.Game, wake time.Time) error) error {
	for rows.Next() {
		var data, board string
		if err := rows.Scan(&data, &board); err != nil {
			return err
		}
		g, wake, err := decodeGame(data, board)
		if err != nil {
			return err
		}
		if err := fn(g, wake); err != nil {
			return err
		}
	}
	return rows.Err()
}

// Games implements storage.Tx.
func (t *tx) Games(fn func(g *storage.Game, wake time.Time) error) error {
	return t.GamesAfter("", 0, fn)
}

// GamesAfter implements storage.Tx.
func (t *tx) GamesAfter(after string, limit int, fn func(g *storage.Game, wake time.Time) error) error {
	var most any // no limit
	if limit > 0 {
		most = limit
	}
	return t.selectGames(`SELECT data, board_message FROM active WHERE kind = $1 AND channel > $2 ORDER BY channel LIMIT $3`+t.lock(), []any{kindGame, after, most}, fn)
}

// GamesIn implements storage.Tx: one query.
func (t *tx) GamesIn(channels []string, fn func(g *storage.Game, wake time.Time) error) error {
	return t.selectGames(`SELECT data, board_message FROM active WHERE kind = $1 AND channel = ANY($2)
		ORDER BY channel`+t.lock(), []any{kindGame, channels}, fn)
}

// PlayerGames implements storage.Tx: the rows that name user as the red
// or the black player, found by the indexes active_red_user_id and
// active_black_user_id (locked in a write, as Games locks every game).
//
// The players are two columns of active that the statements writing a
// game set from it (PutGame, with storage.PlayerUsers, the rule of the
// bbolt backend's index too), rather than columns generated from the
// JSON, which would parse every game's JSON again at each move and tie
// the schema to the stored form of a game, or a table of their own,
// which every start and end of a game would write besides its row.
func (t *tx) PlayerGames(user string, fn func(g *storage.Game, wake time.Time) error) error {
	return t.selectGames(`SELECT data, board_message FROM active WHERE kind = $1
		AND (red_user = $2 OR black_user = $2)
		ORDER BY channel`+t.lock(), []any{kindGame, user}, fn)
}

// NewestPlayerGames implements storage.Tx: the rows that name user as
// red and those that name them as black, each found, counted and read
// newest first on its index (active_red_user_id, active_black_user_id),
// merged by ID and cut at limit. A person never plays themself (the game
// refuses it), so no row is in both.
func (t *tx) NewestPlayerGames(user string, limit int) ([]*storage.Game, int, error) {
	var total int
	if err := t.queryRow(`SELECT (SELECT count(*) FROM active WHERE red_user = $2 AND kind = $1)
		+ (SELECT count(*) FROM active WHERE black_user = $2 AND kind = $1)`,
		kindGame, user).Scan(&total); err != nil {
		return nil, 0, err
	}
	var out []*storage.Game
	err := t.query(`SELECT data, board_message FROM (
		(SELECT id, data, board_message FROM active WHERE red_user = $2 AND kind = $1 ORDER BY id DESC LIMIT $3)
		UNION ALL
		(SELECT id, data, board_message FROM active WHERE black_user = $2 AND kind = $1 ORDER BY id DESC LIMIT $3)
		) AS mine ORDER BY id DESC LIMIT $3`, []any{kindGame, user, limit}, func(rows pgx.Rows) error {
		return games(rows, func(g *storage.Game, _ time.Time) error {
			out = append(out, g)
			return nil
		})
	})
	return out, total, err
}

// selectGames calls fn with every game that query (with args) selects,
// all read before the first call: a connection reads one result at a
// time. In a write, the games are noted locked.
func (t *tx) selectGames(query string, args []any, fn func(g *storage.Game, wake time.Time) error) error {
	type stored struct {
		g    *storage.Game
		wake time.Time
	}
	var all []stored
	err := t.query(query, args, func(rows pgx.Rows) error {
		return games(rows, func(g *storage.Game, wake time.Time) error {
			all = append(all, stored{g, wake})
			return nil
		})
	})
	if err != nil {
		return err
	}
	for _, s := range all {
		t.locked(s.g.ChannelID)
		if err := fn(s.g, s.wake); err != nil {
			return err
		}
	}
	return nil
}

// Recomputable implements storage.Tx: the transaction commits with
// synchronous_commit off (queued, it costs no round trip). The server
// returns from its COMMIT, and releases its row locks, before its WAL is
// flushed; a crash within wal_writer_delay may lose it, but only with
// every later commit, and a durable commit flushes it first, so nothing
// stored later can depend on a write that was lost. A restart after an
// outage commits a few thousand such batches: this keeps them from each
// holding the resume's row for a disk flush while the scheduler waits.
func (t *tx) Recomputable() { t.exec(`SET LOCAL synchronous_commit = off`) }

// CountGames implements storage.Tx.
func (t *tx) CountGames() (int, error) {
	var n int
	if err := t.queryRow(`SELECT count(*) FROM active WHERE kind = $1`, kindGame).Scan(&n); err != nil {
		return 0, err
	}
	return n, nil
}

// GuildGames implements storage.Tx: the count from the guild's rows of
// guild_games, the games on the index active_guild.
func (t *tx) GuildGames(guild string, limit int) ([]*storage.Game, int, error) {
	var total int
	if err := t.queryRow(`SELECT coalesce(sum(n), 0)::bigint FROM guild_games WHERE guild = $1`, guild).Scan(&total); err != nil {
		return nil, 0, err
	}
	var out []*storage.Game
	err := t.query(`SELECT data, board_message FROM active WHERE guild = $1 AND kind = $2 ORDER BY id DESC LIMIT $3`, []any{guild, kindGame, limit}, func(rows pgx.Rows) error {
		return games(rows, func(g *storage.Game, _ time.Time) error {
			out = append(out, g)
			return nil
		})
	})
	return out, total, err
}

// sequences are the names of the sequences, by storage.Sequence.
var sequences = [...]string{storage.GameIDs: "game_ids", storage.ChallengeIDs: "challenge_ids", storage.TournamentIDs: "tournament_ids"}

// sequence returns the name of the sequence seq.
func sequence(seq storage.Sequence) (string, error) {
	if int(seq) >= len(sequences) {
		return "", fmt.Errorf("%w: unknown sequence %v", storage.ErrInvalid, seq)
	}
	return sequences[seq], nil
}

// NextID implements storage.Tx. A sequence is not transactional: an ID
// taken by a transaction that does not commit is not given again.
func (t *tx) NextID(seq storage.Sequence) (uint64, error) {
	name, err := sequence(seq)
	if err != nil {
		return 0, err
	}
	var id int64
	err = t.queryRow(`SELECT nextval('` + name + `')`).Scan(&id)
	return uint64(id), err
}

// SetSequence implements storage.Tx.
func (t *tx) SetSequence(seq storage.Sequence, v uint64) error {
	name, err := sequence(seq)
	if err != nil || v == 0 {
		return err
	}
	t.exec(`SELECT setval('`+name+`', $1)`, int64(v))
	return nil
}

// Challenge implements storage.Tx.
func (t *tx) Challenge(channel string) (*storage.Challenge, error) {
	var data string
	err := t.queryRow(`SELECT data FROM active WHERE channel = $1 AND kind = $2`+t.lock(),
		channel, kindChallenge).Scan(&data)
	if err != nil {
		return nil, notFound(err, "challenge")
	}
	c := new(storage.Challenge)
	if err := storage.Decode([]byte(data), c); err != nil {
		return nil, fmt.Errorf("challenge: %w", err)
	}
	t.challenges = t.note(t.challenges, channel)
	return c, nil
}

// PutChallenge implements storage.Tx. A challenge put in a channel whose
// challenge this write did not read (a start) is inserted, never
// upserted, as a game is (see PutGame): it may not replace a game or a
// challenge that a concurrent start committed first.
func (t *tx) PutChallenge(c *storage.Challenge, _ time.Time) error {
	data, err := storage.Encode(c)
	if err != nil {
		return err
	}
	if t.challenges[c.ChannelID] { // a challenge read and locked: the same row
		t.exec(`UPDATE active SET id = $3, guild = $4, wake_at = $5, data = $6 WHERE channel = $1 AND kind = $2`,
			c.ChannelID, kindChallenge, int64(c.ID), c.GuildID, wakeAt(c.Wake()), string(data))
		return nil
	}
	t.exec(`INSERT INTO active (channel, kind, id, guild, ply, board_message, wake_at, data)
		VALUES ($1, $2, $3, $4, 0, '', $5, $6)`,
		c.ChannelID, kindChallenge, int64(c.ID), c.GuildID, wakeAt(c.Wake()), string(data))
	return nil
}

// DeleteChallenge implements storage.Tx.
func (t *tx) DeleteChallenge(channel string, _ time.Time) error {
	delete(t.challenges, channel)
	t.exec(`DELETE FROM active WHERE channel = $1 AND kind = $2`, channel, kindChallenge)
	return nil
}

// finished reads the finished game of the row that row selects (data).
func finished(row pgx.Row, id uint64) (*storage.FinishedGame, error) {
	var data string
	if err := row.Scan(&data); err != nil {
		return nil, notFound(err, fmt.Sprintf("finished game %d", id))
	}
	f, err := storage.DecodeFinished([]byte(data))
	if err != nil {
		return nil, fmt.Errorf("finished game %d: %w", id, err)
	}
	return f, nil
}

// Finished implements storage.Tx.
func (t *tx) Finished(guild string, id uint64) (*storage.FinishedGame, error) {
	return finished(t.queryRow(`SELECT data FROM finished WHERE guild = $1 AND id = $2`, guild, int64(id)), id)
}

// HasFinished implements storage.Tx.
func (t *tx) HasFinished(guild string, id uint64) (bool, error) {
	var ok bool
	err := t.queryRow(`SELECT EXISTS (SELECT 1 FROM finished WHERE guild = $1 AND id = $2)`, guild, int64(id)).Scan(&ok)
	return ok, err
}

// PutFinished implements storage.Tx.
func (t *tx) PutFinished(f *storage.FinishedGame) error {
	data, err := storage.EncodeFinished(f)
	if err != nil {
		return err
	}
	var end time.Time
	if res := f.Result(); res != nil {
		end = res.At
	}
	t.exec(`INSERT INTO finished (guild, id, channel, end_at, data) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (guild, id) DO UPDATE SET channel = excluded.channel, end_at = excluded.end_at, data = excluded.data`,
		f.GuildID, int64(f.ID), f.ChannelID, storage.UnixNano(end), string(data))
	return nil
}

// IndexFinal implements storage.Tx: the column board_due of the finished
// game's row.
func (t *tx) IndexFinal(guild string, id uint64, _, next time.Time) error {
	t.exec(`UPDATE finished SET board_due = $3 WHERE guild = $1 AND id = $2`, guild, int64(id), wakeAt(next))
	return nil
}

// FinishedData implements storage.Tx. It reads every row before it
// calls fn: a connection reads one result at a time.
func (t *tx) FinishedData(fn func([]byte) error) error {
	var all [][]byte
	if err := t.each(`SELECT data FROM finished ORDER BY guild, id`, func(row pgx.Row) error {
		var data []byte
		err := row.Scan(&data)
		all = append(all, data)
		return err
	}); err != nil {
		return err
	}
	for _, d := range all {
		if err := fn(d); err != nil {
			return err
		}
	}
	return nil
}

// seasonsMark is the mark of storage.Core.RebuildSeasons that migration
// 0004 left for the processes that open the database after it: it
// reports whether the mark is there (locked, in a write, so that a
// concurrent write waits for the row, then finds it gone) and, if drop,
// deletes it.
func seasonsMark(st storage.Tx, drop bool) (bool, error) {
	t := st.(*tx)
	q := `SELECT count(*) FROM (SELECT 1 FROM season_rebuild` + t.lock() + `) AS mark`
	if drop {
		q = `WITH taken AS (DELETE FROM season_rebuild RETURNING 1) SELECT count(*) FROM taken`
	}
	var n int
	err := t.queryRow(q).Scan(&n)
	return n > 0, err
}

// LastFinished implements storage.Tx.
func (t *tx) LastFinished(guild, channel string) (*storage.FinishedGame, error) {
	var id int64
	err := t.queryRow(`SELECT id FROM finished WHERE guild = $1 AND channel = $2 ORDER BY id DESC LIMIT 1`,
		guild, channel).Scan(&id)
	if err != nil {
		return nil, notFound(err, "no finished game in channel "+channel)
	}
	return t.Finished(guild, uint64(id))
}

// PutHistory implements storage.Tx.
func (t *tx) PutHistory(guild, player string, e *storage.HistoryEntry) error {
	data, err := storage.Encode(e)
	if err != nil {
		return err
	}
	t.exec(`INSERT INTO history (guild, player, end_at, game_id, data, opponent, outcome) VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (guild, player, end_at, game_id) DO UPDATE SET data = excluded.data, opponent = excluded.opponent, outcome = excluded.outcome`,
		guild, player, storage.UnixNano(e.At), int64(e.GameID), string(data), storage.ProfileID(e.Opponent), e.Outcome.String())
	return nil
}

// HeadToHead implements storage.Tx: the entries of the pair counted by
// outcome, on the index history_pair alone.
func (t *tx) HeadToHead(guild, player, opponent string) (storage.Tally, error) {
	var tally storage.Tally
	err := t.query(`SELECT outcome, count(*) FROM history WHERE guild = $1 AND player = $2 AND opponent = $3 GROUP BY outcome`,
		[]any{guild, player, opponent}, func(rows pgx.Rows) error {
			for rows.Next() {
				var name string
				var n int
				if err := rows.Scan(&name, &n); err != nil {
					return err
				}
				var o game.Outcome
				if err := o.UnmarshalText([]byte(name)); err != nil {
					return fmt.Errorf("%w: head-to-head of %s and %s: %w", storage.ErrCorrupt, player, opponent, err)
				}
				for range n {
					tally.Add(o)
				}
			}
			return rows.Err()
		})
	return tally, err
}

// History implements storage.Tx. It reads the entries a page at a time,
// since fn may stop early.
func (t *tx) History(guild, player string, before uint64, fn func(*storage.HistoryEntry) bool) error {
	end, id := int64(1<<63-1), int64(1<<63-1)
	if before != 0 {
		err := t.queryRow(`SELECT end_at FROM finished WHERE guild = $1 AND id = $2`, guild, int64(before)).Scan(&end)
		if err != nil {
			return notFound(err, fmt.Sprintf("finished game %d", before))
		}
		id = int64(before)
	}
	const page = 100
	for {
		var entries []*storage.HistoryEntry
		err := t.query(`SELECT end_at, game_id, data FROM history
			WHERE guild = $1 AND player = $2 AND (end_at, game_id) < ($3, $4)
			ORDER BY end_at DESC, game_id DESC LIMIT `+fmt.Sprint(page), []any{guild, player, end, id}, func(rows pgx.Rows) error {
			for rows.Next() {
				var data string
				if err := rows.Scan(&end, &id, &data); err != nil {
					return err
				}
				e := new(storage.HistoryEntry)
				if err := storage.Decode([]byte(data), e); err != nil {
					return fmt.Errorf("history entry of game %d: %w", id, err)
				}
				entries = append(entries, e)
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, e := range entries {
			if !fn(e) {
				return nil
			}
		}
		if len(entries) < page {
			return nil
		}
	}
}

// ladderTable returns the table of the profiles of the season (zero:
// the all-time ladders), and the condition and arguments, from $1, that
// select a ladder of a guild in it.
func ladderTable(guild string, season storage.Season, ladder storage.Ladder) (table, where string, args []any) {
	if season != 0 {
		return "season_profiles", "guild = $1 AND ladder = $2 AND season = $3", []any{guild, int16(ladder), int32(season)}
	}
	return "profiles", "guild = $1 AND ladder = $2", []any{guild, int16(ladder)}
}

// profile returns a profile of the season (zero: all-time).
func (t *tx) profile(guild string, season storage.Season, ladder storage.Ladder, player string) (*storage.Profile, error) {
	table, where, args := ladderTable(guild, season, ladder)
	var data string
	err := t.queryRow(`SELECT data FROM `+table+` WHERE `+where+fmt.Sprintf(` AND player = $%d`, len(args)+1)+t.lock(),
		append(args, player)...).Scan(&data)
	if err != nil {
		return nil, notFound(err, "profile of "+player)
	}
	p := new(storage.Profile)
	if err := storage.Decode([]byte(data), p); err != nil {
		return nil, fmt.Errorf("profile of %s: %w", player, err)
	}
	return p, nil
}

// Profile implements storage.Tx.
func (t *tx) Profile(guild string, ladder storage.Ladder, player string) (*storage.Profile, error) {
	return t.profile(guild, 0, ladder, player)
}

// SeasonProfile implements storage.Tx.
func (t *tx) SeasonProfile(guild string, season storage.Season, ladder storage.Ladder, player string) (*storage.Profile, error) {
	return t.profile(guild, season, ladder, player)
}

// PutProfile implements storage.Tx. A new profile is inserted, so that
// two transactions that both make it conflict (and one runs again)
// instead of one overwriting the other.
func (t *tx) PutProfile(p, old *storage.Profile) error {
	if p.Season != 0 {
		return fmt.Errorf("%w: a profile of the season %v on the all-time ladder", storage.ErrInvalid, p.Season)
	}
	return t.putProfile(p, old)
}

// PutSeasonProfile implements storage.Tx, as PutProfile.
func (t *tx) PutSeasonProfile(p, old *storage.Profile) error {
	if !p.Season.Valid() {
		return fmt.Errorf("%w: a season profile without a season", storage.ErrInvalid)
	}
	return t.putProfile(p, old)
}

// putProfile stores p, whose stored version is old, on its ladder.
func (t *tx) putProfile(p, old *storage.Profile) error {
	data, err := storage.Encode(p)
	if err != nil {
		return err
	}
	table, where, args := ladderTable(p.GuildID, p.Season, p.Ladder)
	n := len(args)
	q := fmt.Sprintf(`UPDATE %s SET rank_key = $%d, data = $%d WHERE %s AND player = $%d`, table, n+2, n+3, where, n+1)
	if old == nil {
		cols := "guild, ladder"
		if p.Season != 0 {
			cols += ", season"
		}
		q = fmt.Sprintf(`INSERT INTO %s (%s, player, rank_key, data) VALUES (%s)`, table, cols, placeholders(n+3))
	}
	t.exec(q, append(args, p.UserID, p.RankKey(), string(data))...)
	t.moveBand(p, old)
	switch {
	case old == nil && p.Season == 0:
		t.exec(`INSERT INTO ladder_sizes (guild, ladder, n) VALUES ($1, $2, 1)
			ON CONFLICT (guild, ladder) DO UPDATE SET n = ladder_sizes.n + 1`, p.GuildID, int16(p.Ladder))
	case old == nil:
		t.exec(`INSERT INTO season_ladder_sizes (guild, season, ladder, n) VALUES ($1, $2, $3, 1)
			ON CONFLICT (guild, season, ladder) DO UPDATE SET n = season_ladder_sizes.n + 1`, p.GuildID, int32(p.Season), int16(p.Ladder))
	}
	return nil
}

// moveBand counts p, whose stored version is old (nil for a new
// profile), in its band of the ladder (table rank_bands), and no longer in
// old's if that was another: at the commit (writeBands).
func (t *tx) moveBand(p, old *storage.Profile) {
	row := bandRow{p.GuildID, int32(p.Season), int16(p.Ladder), string(storage.RankBand(p.RankKey()))}
	was := row
	if old != nil {
		if was.band = string(storage.RankBand(old.RankKey())); was == row {
			return
		}
	}
	if t.bands == nil {
		t.bands = map[bandRow]int64{}
	}
	t.bands[row]++
	if old != nil {
		t.bands[was]--
	}
}

// writeBands queues the changes to the band counts of the transaction, in
// the bands' order: two transactions that end games at once lock the rows
// of the bands they share in the same order, and the rows are locked only
// from there to the commit, so that the counts, which every game's end
// changes, never make a deadlock.
func (t *tx) writeBands() {
	rows := slices.SortedFunc(maps.Keys(t.bands), func(a, b bandRow) int {
		return cmp.Or(cmp.Compare(a.guild, b.guild), cmp.Compare(a.season, b.season), cmp.Compare(a.ladder, b.ladder), cmp.Compare(a.band, b.band))
	})
	for _, r := range rows {
		if d := t.bands[r]; d != 0 {
			t.exec(`INSERT INTO rank_bands (guild, season, ladder, band, n) VALUES ($1, $2, $3, $4, $5)
				ON CONFLICT (guild, season, ladder, band) DO UPDATE SET n = rank_bands.n + excluded.n`, r.guild, r.season, r.ladder, []byte(r.band), d)
		}
	}
	t.bands = nil
}

// placeholders returns "$1, $2, …, $n".
func placeholders(n int) string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("$%d", i+1)
	}
	return strings.Join(out, ", ")
}

// Leaderboard implements storage.Tx.
func (t *tx) Leaderboard(guild string, ladder storage.Ladder, offset, limit int) ([]storage.Profile, int, error) {
	return t.leaderboard(guild, 0, ladder, offset, limit)
}

// SeasonLeaderboard implements storage.Tx.
func (t *tx) SeasonLeaderboard(guild string, season storage.Season, ladder storage.Ladder, offset, limit int) ([]storage.Profile, int, error) {
	return t.leaderboard(guild, season, ladder, offset, limit)
}

// leaderboard is Leaderboard on a ladder of the season (zero: all-time).
func (t *tx) leaderboard(guild string, season storage.Season, ladder storage.Ladder, offset, limit int) ([]storage.Profile, int, error) {
	table, where, args := ladderTable(guild, season, ladder)
	n := len(args)
	if offset < bandsFrom {
		// The page from its first rank key, which an index-only scan of
		// the ranks finds without reading the profiles before it.
		return t.ladderPage(guild, season, ladder, fmt.Sprintf(`SELECT data FROM %[1]s WHERE %[2]s AND rank_key >= (
				SELECT rank_key FROM %[1]s WHERE %[2]s ORDER BY rank_key OFFSET $%[3]d LIMIT 1)
			ORDER BY rank_key LIMIT $%[4]d`, table, where, n+2, n+1), append(args, limit, offset))
	}
	// Further down, the band of the rank at offset, from the bands'
	// counts added up in rank order (a few thousand at most), then the
	// page from the band's start, skipping the ranks of the band before
	// it.
	return t.ladderPage(guild, season, ladder, fmt.Sprintf(`WITH b AS (
			SELECT band, $%[3]d - (upto - n) AS skip FROM (
				SELECT band, n, sum(n) OVER (ORDER BY band) AS upto FROM rank_bands
				WHERE guild = $1 AND ladder = $2 AND season = $%[5]d) AS bands
			WHERE upto > $%[3]d ORDER BY band LIMIT 1)
		SELECT data FROM %[1]s WHERE %[2]s AND rank_key >= (SELECT band FROM b)
		ORDER BY rank_key OFFSET (SELECT skip FROM b) LIMIT $%[4]d`, table, where, n+1, n+2, bandSeason(n)),
		bandArgs(args, season, offset, limit))
}

// bandsFrom is the first offset from which a leaderboard page is found
// from the ladder's bands: the pages before, skipping fewer ranks than a
// ladder has bands, are read quicker from the top.
var bandsFrom = 1000

// bandSeason returns the placeholder of the season in the bands' query of
// a ladder whose own arguments are n: the season's own (the third) on a
// season's ladder, else one after the offset and limit.
func bandSeason(n int) int {
	if n == 3 {
		return 3
	}
	return n + 3
}

// bandArgs returns the arguments of the bands' query of a ladder of the
// season (zero: all-time) selected by args: args, the offset and limit,
// and the season (0) if args do not hold it.
func bandArgs(args []any, season storage.Season, offset, limit int) []any {
	args = append(args, int64(offset), limit)
	if season == 0 {
		args = append(args, int32(0))
	}
	return args
}

// LeaderboardFrom implements storage.Tx: the ranks after (or before) the
// mark's, read from the rank index at its key.
func (t *tx) LeaderboardFrom(guild string, season storage.Season, ladder storage.Ladder, from storage.Mark, before bool, limit int) ([]storage.Profile, int, error) {
	p, err := t.profile(guild, season, ladder, from.Player)
	if err != nil {
		return nil, 0, err
	}
	table, where, args := ladderTable(guild, season, ladder)
	cmp, order := ">", "rank_key"
	if before {
		cmp, order = "<", "rank_key DESC"
	}
	n := len(args)
	page, total, err := t.ladderPage(guild, season, ladder, fmt.Sprintf(`SELECT data FROM %s WHERE %s AND rank_key %s $%d ORDER BY %s LIMIT $%d`,
		table, where, cmp, n+1, order, n+2), append(args, from.RankKey(p), limit))
	if before {
		slices.Reverse(page)
	}
	return page, total, err
}

// ladderPage returns the profiles that the query q (with args) reads from
// a ladder of the season (zero: all-time), and the size of the ladder.
func (t *tx) ladderPage(guild string, season storage.Season, ladder storage.Ladder, q string, args []any) ([]storage.Profile, int, error) {
	var total int // the ladders' sizes are kept
	sizes, sizeArgs := `SELECT n FROM ladder_sizes WHERE guild = $1 AND ladder = $2`, []any{guild, int16(ladder)}
	if season != 0 {
		sizes, sizeArgs = `SELECT n FROM season_ladder_sizes WHERE guild = $1 AND ladder = $2 AND season = $3`, append(sizeArgs, int32(season))
	}
	if err := t.queryRow(sizes, sizeArgs...).Scan(&total); err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return nil, 0, err
	}
	var page []storage.Profile
	err := t.query(q, args, func(rows pgx.Rows) error {
		var err error
		page, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (storage.Profile, error) {
			var data string
			var p storage.Profile
			if err := row.Scan(&data); err != nil {
				return p, err
			}
			return p, storage.Decode([]byte(data), &p)
		})
		return err
	})
	return page, total, err
}

// EachGuildSettings implements storage.Tx. It reads every row before it
// calls fn: a connection reads one result at a time.
func (t *tx) EachGuildSettings(fn func(*storage.GuildSettingsEntry) error) error {
	var all []*storage.GuildSettingsEntry
	err := t.each(`SELECT guild, data FROM guild_settings ORDER BY guild COLLATE "C"`, func(row pgx.Row) error {
		var data string
		r := new(storage.GuildSettingsEntry)
		if err := scanDecode(row, &data, &r.Settings, &r.GuildID); err != nil {
			return err
		}
		all = append(all, r)
		return nil
	})
	if err != nil {
		return err
	}
	for _, r := range all {
		if err := fn(r); err != nil {
			return err
		}
	}
	return nil
}

// settings reads the settings of id from table (keyed by column) into v.
func (t *tx) settings(table, column, id string, v any) error {
	var data string
	err := t.queryRow(`SELECT data FROM `+table+` WHERE `+column+` = $1`+t.lock(), id).Scan(&data)
	if errors.Is(err, pgx.ErrNoRows) {
		t.noteMissing(table, id)
	}
	if err != nil {
		return notFound(err, "settings")
	}
	return storage.Decode([]byte(data), v)
}

// noteMissing notes that a write found no row id in table (see
// missing).
func (t *tx) noteMissing(table, id string) {
	if !t.write {
		return
	}
	if t.missing == nil {
		t.missing = map[string]bool{}
	}
	t.missing[table+"\x00"+id] = true
}

// putSettings stores the settings v of id in table (keyed by column).
// Settings that this write found missing are inserted, so that two first
// writes of them conflict (and one runs again) instead of one
// overwriting the other.
func (t *tx) putSettings(table, column, id string, v any) error {
	data, err := storage.Encode(v)
	if err != nil {
		return err
	}
	q := `INSERT INTO ` + table + ` (` + column + `, data) VALUES ($1, $2)`
	if !t.missing[table+"\x00"+id] {
		q += ` ON CONFLICT (` + column + `) DO UPDATE SET data = excluded.data`
	}
	t.exec(q, id, string(data))
	return nil
}

// GuildSettings implements storage.Tx.
func (t *tx) GuildSettings(guild string) (*storage.GuildSettings, error) {
	v := new(storage.GuildSettings)
	return v, t.settings("guild_settings", "guild", guild, v)
}

// PutGuildSettings implements storage.Tx.
func (t *tx) PutGuildSettings(guild string, v *storage.GuildSettings) error {
	return t.putSettings("guild_settings", "guild", guild, v)
}

// UserSettings implements storage.Tx.
func (t *tx) UserSettings(user string) (*storage.UserSettings, error) {
	v := new(storage.UserSettings)
	return v, t.settings("user_settings", "user_id", user, v)
}

// PutUserSettings implements storage.Tx.
func (t *tx) PutUserSettings(user string, v *storage.UserSettings) error {
	return t.putSettings("user_settings", "user_id", user, v)
}

// RoleLink implements storage.Tx.
func (t *tx) RoleLink(user string) (*storage.RoleLink, error) {
	var data string
	if err := t.queryRow(`SELECT data FROM role_links WHERE user_id = $1`+t.lock(), user).Scan(&data); err != nil {
		return nil, notFound(err, "role link")
	}
	l := new(storage.RoleLink)
	if err := storage.Decode([]byte(data), l); err != nil {
		return nil, fmt.Errorf("role link: %w", err)
	}
	return l, nil
}

// PutRoleLink implements storage.Tx.
func (t *tx) PutRoleLink(l *storage.RoleLink) error {
	data, err := storage.Encode(l)
	if err != nil {
		return err
	}
	t.exec(`INSERT INTO role_links (user_id, data) VALUES ($1, $2)
		ON CONFLICT (user_id) DO UPDATE SET data = excluded.data`, l.UserID, string(data))
	return nil
}

// DeleteRoleLink implements storage.Tx.
func (t *tx) DeleteRoleLink(user string) error {
	t.exec(`DELETE FROM role_links WHERE user_id = $1`, user)
	return nil
}

// Vacation implements storage.Tx.
func (t *tx) Vacation(user string) (*storage.Vacation, time.Time, error) {
	var data string
	var at *int64
	err := t.queryRow(`SELECT wake_at, data FROM vacations WHERE user_id = $1`+t.lock(), user).Scan(&at, &data)
	if err != nil {
		return nil, time.Time{}, notFound(err, "vacation")
	}
	v := new(storage.Vacation)
	if err := storage.Decode([]byte(data), v); err != nil {
		return nil, time.Time{}, fmt.Errorf("vacation: %w", err)
	}
	var wake time.Time
	if at != nil {
		wake = time.Unix(0, *at)
	}
	return v, wake, nil
}

// PutVacation implements storage.Tx. The wake is a column of the row.
func (t *tx) PutVacation(v *storage.Vacation, _ time.Time) error {
	data, err := storage.Encode(v)
	if err != nil {
		return err
	}
	t.exec(`INSERT INTO vacations (user_id, wake_at, data) VALUES ($1, $2, $3)
		ON CONFLICT (user_id) DO UPDATE SET wake_at = excluded.wake_at, data = excluded.data`,
		v.UserID, wakeAt(v.Wake()), string(data))
	return nil
}

// OpenVacation implements storage.Tx: one statement, which inserts no row
// for a user who has one (and waits for a write of it under way).
func (t *tx) OpenVacation(v *storage.Vacation) error {
	data, err := storage.Encode(v)
	if err != nil {
		return err
	}
	t.exec(`INSERT INTO vacations (user_id, wake_at, data) VALUES ($1, $2, $3) ON CONFLICT (user_id) DO NOTHING`,
		v.UserID, wakeAt(v.Wake()), string(data))
	return nil
}

// Review implements storage.Tx.
func (t *tx) Review(guild string, id uint64) ([]byte, error) {
	var data string
	err := t.queryRow(`SELECT data FROM reviews WHERE guild = $1 AND game_id = $2`, guild, int64(id)).Scan(&data)
	if err != nil {
		return nil, notFound(err, fmt.Sprintf("review of game %d", id))
	}
	var r []byte
	if err := storage.Decode([]byte(data), (*json.RawMessage)(&r)); err != nil {
		return nil, fmt.Errorf("review of game %d: %w", id, err)
	}
	return r, nil
}

// PutReview implements storage.Tx.
func (t *tx) PutReview(guild string, id uint64, data []byte) error {
	v, err := storage.Encode(json.RawMessage(data))
	if err != nil {
		return err
	}
	t.exec(`INSERT INTO reviews (guild, game_id, data) VALUES ($1, $2, $3)
		ON CONFLICT (guild, game_id) DO UPDATE SET data = excluded.data`, guild, int64(id), string(v))
	return nil
}

// PutPendingReview implements storage.Tx.
func (t *tx) PutPendingReview(p *storage.PendingReview) error {
	v, err := storage.Encode(p)
	if err != nil {
		return err
	}
	t.exec(`INSERT INTO pending_reviews (guild, game_id, data) VALUES ($1, $2, $3)
		ON CONFLICT (guild, game_id) DO UPDATE SET data = excluded.data`, p.GuildID, int64(p.GameID), string(v))
	return nil
}

// DeletePendingReview implements storage.Tx.
func (t *tx) DeletePendingReview(guild string, id uint64) error {
	t.exec(`DELETE FROM pending_reviews WHERE guild = $1 AND game_id = $2`, guild, int64(id))
	return nil
}

// PendingReviews implements storage.Tx.
func (t *tx) PendingReviews() ([]storage.PendingReview, error) {
	var out []storage.PendingReview
	err := t.query(`SELECT data FROM pending_reviews ORDER BY guild, game_id`, nil, func(rows pgx.Rows) error {
		for rows.Next() {
			var data string
			if err := rows.Scan(&data); err != nil {
				return err
			}
			var p storage.PendingReview
			if err := storage.Decode([]byte(data), &p); err != nil {
				return fmt.Errorf("pending review: %w", err)
			}
			out = append(out, p)
		}
		return rows.Err()
	})
	return out, err
}

// Alive implements storage.Tx. A write locks the row, so that two
// processes that start at once Resume one after the other.
func (t *tx) Alive() (time.Time, error) {
	var at int64
	err := t.queryRow(`SELECT at FROM alive WHERE id = 1` + t.lock()).Scan(&at)
	if errors.Is(err, pgx.ErrNoRows) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, err
	}
	return time.Unix(0, at), nil
}

// PutAlive implements storage.Tx.
func (t *tx) PutAlive(at time.Time) error {
	t.exec(`INSERT INTO alive (id, at) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET at = excluded.at`,
		at.UnixNano())
	return nil
}

// Tournament implements storage.Tx.
func (t *tx) Tournament(guild string, id uint64) (*storage.Tournament, time.Time, error) {
	var data string
	err := t.queryRow(`SELECT data FROM tournaments WHERE guild = $1 AND id = $2`+t.lock(), guild, int64(id)).Scan(&data)
	if err != nil {
		return nil, time.Time{}, notFound(err, fmt.Sprintf("tournament %d", id))
	}
	return storage.DecodeTournament([]byte(data))
}

// PutTournament implements storage.Tx. The wake is a column of the
// tournament's row.
func (t *tx) PutTournament(tn *storage.Tournament, _ time.Time) error {
	data, err := storage.EncodeTournament(tn)
	if err != nil {
		return err
	}
	t.exec(`INSERT INTO tournaments (guild, id, wake_at, data) VALUES ($1, $2, $3, $4)
		ON CONFLICT (guild, id) DO UPDATE SET wake_at = excluded.wake_at, data = excluded.data`,
		tn.GuildID, int64(tn.ID), wakeAt(tn.Wake()), string(data))
	return nil
}

// GuildTournaments implements storage.Tx.
func (t *tx) GuildTournaments(guild string) ([]*storage.Tournament, error) {
	var out []*storage.Tournament
	err := t.query(`SELECT data FROM tournaments WHERE guild = $1 ORDER BY id DESC`, []any{guild}, func(rows pgx.Rows) error {
		for rows.Next() {
			tn, err := scanTournament(rows)
			if err != nil {
				return err
			}
			out = append(out, tn)
		}
		return rows.Err()
	})
	return out, err
}

// scanTournament reads the tournament a row holds (data).
func scanTournament(row pgx.Row) (*storage.Tournament, error) {
	var data string
	if err := row.Scan(&data); err != nil {
		return nil, err
	}
	tn, _, err := storage.DecodeTournament([]byte(data))
	return tn, err
}

// Resuming implements storage.Tx.
func (t *tx) Resuming() (*storage.Resuming, error) {
	var data string
	err := t.queryRow(`SELECT data FROM resuming WHERE id = 1` + t.lock()).Scan(&data)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	r := new(storage.Resuming)
	if err := storage.Decode([]byte(data), r); err != nil {
		return nil, fmt.Errorf("resume: %w", err)
	}
	return r, nil
}

// PutResuming implements storage.Tx.
func (t *tx) PutResuming(r *storage.Resuming) error {
	if r == nil {
		t.exec(`DELETE FROM resuming WHERE id = 1`)
		return nil
	}
	data, err := storage.Encode(r)
	if err != nil {
		return err
	}
	t.exec(`INSERT INTO resuming (id, data) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET data = excluded.data`, string(data))
	return nil
}

// NextWake implements storage.Tx.
func (t *tx) NextWake() (time.Time, bool, error) {
	var at *int64
	if err := t.queryRow(`SELECT min(at) FROM (SELECT min(wake_at) AS at FROM active
		UNION ALL SELECT min(wake_at) FROM tournaments
		UNION ALL SELECT min(wake_at) FROM vacations
		UNION ALL SELECT min(board_due) FROM finished WHERE board_due IS NOT NULL) AS wakes`).Scan(&at); err != nil || at == nil {
		return time.Time{}, false, err
	}
	return time.Unix(0, *at), true, nil
}

// Due implements storage.Tx. Channels order by their bytes (COLLATE "C"),
// as bbolt's keys do.
func (t *tx) Due(now time.Time) ([]storage.Wake, error) {
	var due []storage.Wake
	err := t.query(`SELECT kind, channel, at FROM (SELECT kind, channel, wake_at AS at FROM active WHERE wake_at <= $1
		UNION ALL SELECT `+strconv.Itoa(int(storage.WakeTournament))+`, guild || '/' || id, wake_at FROM tournaments WHERE wake_at <= $1
		UNION ALL SELECT `+strconv.Itoa(int(storage.WakeVacation))+`, user_id, wake_at FROM vacations WHERE wake_at <= $1
		UNION ALL SELECT $2::smallint, guild || '/' || id, board_due FROM finished WHERE board_due <= $1) AS wakes
		ORDER BY at, kind, channel COLLATE "C"`, []any{storage.UnixNano(now), int16(storage.WakeFinal)}, func(rows pgx.Rows) error {
		var err error
		due, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (storage.Wake, error) {
			var w storage.Wake
			var kind int16
			var at int64
			err := row.Scan(&kind, &w.ChannelID, &at)
			w.Kind, w.At = storage.WakeKind(kind), time.Unix(0, at)
			return w, err
		})
		return err
	})
	return due, err
}

// Lease implements storage.LeaseTx. A write that finds no lease notes it, so
// that PutLease inserts: two processes that claim a first lease at once
// then conflict, and the second, run again, finds the first's.
func (t *tx) Lease(kind storage.WakeKind, channel string) (*storage.Lease, error) {
	var at, until int64
	l := &storage.Lease{Wake: storage.Wake{Kind: kind, ChannelID: channel}}
	err := t.queryRow(`SELECT at, owner, until FROM leases WHERE kind = $1 AND channel = $2`+t.lock(),
		int16(kind), channel).Scan(&at, &l.Owner, &until)
	if errors.Is(err, pgx.ErrNoRows) {
		t.noteMissing("leases", leaseID(kind, channel))
	}
	if err != nil {
		return nil, notFound(err, "lease")
	}
	l.Wake.At, l.Until = time.Unix(0, at), time.Unix(0, until)
	return l, nil
}

// leaseID names the lease of kind and channel in missing.
func leaseID(kind storage.WakeKind, channel string) string { return kind.String() + "\x00" + channel }

// PutLease implements storage.LeaseTx.
func (t *tx) PutLease(l *storage.Lease) error {
	q := `INSERT INTO leases (kind, channel, at, owner, until) VALUES ($1, $2, $3, $4, $5)`
	if !t.missing["leases\x00"+leaseID(l.Wake.Kind, l.Wake.ChannelID)] {
		q += ` ON CONFLICT (kind, channel) DO UPDATE SET at = excluded.at, owner = excluded.owner, until = excluded.until`
	}
	t.exec(q, int16(l.Wake.Kind), l.Wake.ChannelID, storage.UnixNano(l.Wake.At), l.Owner, storage.UnixNano(l.Until))
	return nil
}
