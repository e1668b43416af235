package postgres

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/kulami/kulami/storage"
)

// Records implements storage.Tx: every table, one after the other, in
// the transaction's snapshot (so that the pages of active games it reads
// are the games of one moment). The large tables are read in the order of
// their primary keys (an index scan, no sort), which is the order of the
// keys of the bbolt file (strings then numbers, byte by byte where the
// database's collation is C, as initdb's C.UTF-8 is; in another, still
// guild by guild and player by player): a migrate into bbolt then writes
// each bucket from its start to its end, onto the few pages at the end of
// the tree, instead of all over it, so its pages are packed
// (storage/fill.go) and few of them are mapped at once.
func (t *tx) Records(fn func(storage.Record) error) error {
	// The active games a page at a time (each page read whole before fn
	// sees it, see selectGames), so that an export holds one page of
	// games, not all of them.
	for after := ""; ; {
		n := 0
		if err := t.GamesAfter(after, exportPage, func(g *storage.Game, _ time.Time) error {
			after, n = g.ChannelID, n+1
			return fn(storage.GameRecords.Record(g))
		}); err != nil {
			return err
		}
		if n < exportPage {
			break
		}
	}
	if err := t.EachGuildSettings(func(r *storage.GuildSettingsEntry) error { return fn(storage.GuildSettingsRecords.Record(r)) }); err != nil {
		return fmt.Errorf("export the guild settings: %w", err)
	}
	if err := t.puzzleRecords(fn); err != nil {
		return err
	}
	for _, each := range []struct {
		query string
		fn    func(row pgx.Row) error
	}{
		{`SELECT data FROM active WHERE kind = 1`, decodedRecord(storage.ChallengeRecords, fn)},
		{`SELECT data FROM finished ORDER BY guild, id`, func(row pgx.Row) error {
			var data string
			if err := row.Scan(&data); err != nil {
				return err
			}
			f, err := storage.DecodeFinished([]byte(data))
			if err != nil {
				return err
			}
			return fn(storage.FinishedRecords.Record(f))
		}},
		{`SELECT guild, player, data FROM history ORDER BY guild, player, end_at, game_id`, func(row pgx.Row) error {
			var data string
			r := new(storage.HistoryRecord)
			if err := scanDecode(row, &data, &r.Entry, &r.GuildID, &r.PlayerID); err != nil {
				return err
			}
			return fn(storage.HistoryRecords.Record(r))
		}},
		{`SELECT data FROM profiles ORDER BY guild, ladder, player`, decodedRecord(storage.ProfileRecords, fn)},
		{`SELECT data FROM season_profiles ORDER BY guild, season, ladder, player`, decodedRecord(storage.SeasonProfileRecords, fn)},
		{`SELECT user_id, data FROM user_settings`, func(row pgx.Row) error {
			var data string
			r := new(storage.UserSettingsEntry)
			if err := scanDecode(row, &data, &r.Settings, &r.UserID); err != nil {
				return err
			}
			return fn(storage.UserSettingsRecords.Record(r))
		}},
		{`SELECT data FROM vacations`, decodedRecord(storage.VacationRecords, fn)},
		{`SELECT data FROM role_links ORDER BY user_id`, decodedRecord(storage.RoleLinkRecords, fn)},
		{`SELECT guild, game_id, data FROM reviews ORDER BY guild, game_id`, func(row pgx.Row) error {
			var data string
			var id int64
			r := new(storage.ReviewRecord)
			if err := scanDecode(row, &data, (*json.RawMessage)(&r.Data), &r.GuildID, &id); err != nil {
				return err
			}
			r.GameID = uint64(id)
			return fn(storage.ReviewRecords.Record(r))
		}},
		{`SELECT data FROM tournaments`, func(row pgx.Row) error {
			tn, err := scanTournament(row)
			if err != nil {
				return err
			}
			return fn(storage.TournamentRecords.Record(tn))
		}},
		{`SELECT at FROM alive`, func(row pgx.Row) error {
			var at int64
			if err := row.Scan(&at); err != nil {
				return err
			}
			t := time.Unix(0, at)
			return fn(storage.AliveRecords.Record(&t))
		}},
		{`SELECT 0, last_value, is_called FROM game_ids UNION ALL SELECT 1, last_value, is_called FROM challenge_ids
			UNION ALL SELECT 2, last_value, is_called FROM tournament_ids`, func(row pgx.Row) error {
			var seq int16
			var v int64
			var called bool
			if err := row.Scan(&seq, &v, &called); err != nil || !called {
				return err
			}
			return fn(storage.SequenceRecords.Record(&storage.SequenceRecord{Name: storage.Sequence(seq), Value: uint64(v)}))
		}},
	} {
		if err := t.each(each.query, each.fn); err != nil {
			return fmt.Errorf("export %q: %w", each.query, err)
		}
	}
	return nil
}

// each calls fn with every row of query. fn must not use the
// transaction: the rows are read while it runs.
func (t *tx) each(query string, fn func(pgx.Row) error) error {
	return t.query(query, nil, func(rows pgx.Rows) error {
		for rows.Next() {
			if err := fn(rows); err != nil {
				return err
			}
		}
		return nil
	})
}

// scanDecode scans a row whose last column is a stored value into data,
// decoded into v, and the columns before it into keys.
func scanDecode(row pgx.Row, data *string, v any, keys ...any) error {
	if err := row.Scan(append(keys, data)...); err != nil {
		return err
	}
	return storage.Decode([]byte(*data), v)
}

// exportPage is how many active games Records reads at a time.
const exportPage = 1000

// decodedRecord returns a function that decodes the stored value of a
// row's one column, of kind k, and calls fn with it.
func decodedRecord[T any](k *storage.RecordKind[T], fn func(storage.Record) error) func(pgx.Row) error {
	return func(row pgx.Row) error {
		var data string
		x := new(T)
		if err := scanDecode(row, &data, x); err != nil {
			return err
		}
		return fn(k.Record(x))
	}
}
