package postgres

import (
	"errors"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/kulami/kulami/storage"
)

// PuzzleSet implements storage.Tx.
func (t *tx) PuzzleSet(name string) (string, error) {
	var hash string
	return hash, t.settings("puzzle_sets", "name", name, &hash)
}

// PutPuzzleSet implements storage.Tx.
func (t *tx) PutPuzzleSet(name, hash string) error {
	return t.putSettings("puzzle_sets", "name", name, hash)
}

// Puzzle implements storage.Tx.
func (t *tx) Puzzle(id string) (*storage.PuzzleEntry, error) {
	var data string
	e := new(storage.PuzzleEntry)
	if err := scanDecode(t.queryRow(`SELECT data FROM puzzles WHERE id = $1`+t.lock(), id), &data, e); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			t.noteMissing("puzzles", id)
		}
		return nil, notFound(err, "puzzle "+id)
	}
	return e, nil
}

// PutPuzzle implements storage.Tx. A new puzzle is inserted, so that two
// processes loading it at once conflict (and one runs again).
func (t *tx) PutPuzzle(e, old *storage.PuzzleEntry) error {
	data, err := storage.Encode(e)
	if err != nil {
		return err
	}
	q := `INSERT INTO puzzles (id, start_rating, rating, data) VALUES ($1, $2, $3, $4)`
	if old != nil {
		q = `UPDATE puzzles SET start_rating = $2, rating = $3, data = $4 WHERE id = $1`
	}
	t.exec(q, e.ID(), e.Puzzle.Rating, e.Rating.Rating, string(data))
	return nil
}

// PuzzlesAround implements storage.Tx: each side read from the index of
// ratings.
func (t *tx) PuzzlesAround(r float64, user string) (up, down *storage.PuzzleEntry, err error) {
	const notTried = ` AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a WHERE a.user_id = $2 AND a.puzzle_id = p.id)`
	var sides [2]*storage.PuzzleEntry
	for i, q := range []string{
		`SELECT data FROM puzzles p WHERE rating >= $1%s ORDER BY rating, id COLLATE "C" LIMIT 1`,
		`SELECT data FROM puzzles p WHERE rating < $1%s ORDER BY rating DESC, id COLLATE "C" DESC LIMIT 1`,
	} {
		args := []any{r}
		cond := ""
		if user != "" {
			cond, args = notTried, append(args, user)
		}
		var data string
		e := new(storage.PuzzleEntry)
		err := scanDecode(t.queryRow(fmt.Sprintf(q, cond), args...), &data, e)
		switch {
		case err == nil:
			sides[i] = e
		case !errors.Is(err, pgx.ErrNoRows):
			return nil, nil, err
		}
	}
	return sides[0], sides[1], nil
}

// PuzzlesRated implements storage.Tx.
func (t *tx) PuzzlesRated(lo, hi int) ([]string, error) {
	var ids []string
	err := t.query(`SELECT id FROM puzzles WHERE start_rating BETWEEN $1 AND $2 ORDER BY id COLLATE "C"`, []any{lo, hi}, func(rows pgx.Rows) error {
		var err error
		ids, err = pgx.CollectRows(rows, pgx.RowTo[string])
		return err
	})
	return ids, err
}

// PuzzleProfile implements storage.Tx.
func (t *tx) PuzzleProfile(user string) (*storage.PuzzleProfile, error) {
	p := new(storage.PuzzleProfile)
	if err := t.settings("puzzle_profiles", "user_id", user, p); err != nil {
		return nil, err
	}
	return p, nil
}

// PutPuzzleProfile implements storage.Tx: the profile, and its place on
// the leaderboard of each of its guilds.
func (t *tx) PutPuzzleProfile(p, old *storage.PuzzleProfile) error {
	if err := t.putSettings("puzzle_profiles", "user_id", p.UserID, p); err != nil {
		return err
	}
	for _, g := range p.Guilds {
		if old != nil && slices.Contains(old.Guilds, g) {
			t.exec(`UPDATE puzzle_ranks SET rank_key = $3 WHERE guild = $1 AND user_id = $2`, g, p.UserID, p.RankKey())
			continue
		}
		t.exec(`INSERT INTO puzzle_ranks (guild, user_id, rank_key) VALUES ($1, $2, $3)`, g, p.UserID, p.RankKey())
		t.exec(`INSERT INTO puzzle_ladder_sizes (guild, n) VALUES ($1, 1)
			ON CONFLICT (guild) DO UPDATE SET n = puzzle_ladder_sizes.n + 1`, g)
	}
	return nil
}

// PuzzleLeaderboard implements storage.Tx: the page read from the rank
// index at the mark's key (or the top).
func (t *tx) PuzzleLeaderboard(guild string, from *storage.Mark, before bool, limit int) ([]storage.PuzzleProfile, int, error) {
	q, args := `SELECT p.data FROM puzzle_ranks r JOIN puzzle_profiles p ON p.user_id = r.user_id
		WHERE r.guild = $1 ORDER BY r.rank_key LIMIT $2`, []any{guild, limit}
	if from != nil {
		p, err := t.PuzzleProfile(from.Player)
		if err != nil {
			return nil, 0, err
		}
		cmp, order := ">", "r.rank_key"
		if before {
			cmp, order = "<", "r.rank_key DESC"
		}
		q = `SELECT p.data FROM puzzle_ranks r JOIN puzzle_profiles p ON p.user_id = r.user_id
			WHERE r.guild = $1 AND r.rank_key ` + cmp + ` $3 ORDER BY ` + order + ` LIMIT $2`
		args = append(args, from.PuzzleRankKey(p))
	}
	var total int
	if err := t.queryRow(`SELECT n FROM puzzle_ladder_sizes WHERE guild = $1`, guild).Scan(&total); err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return nil, 0, err
	}
	var page []storage.PuzzleProfile
	err := t.query(q, args, func(rows pgx.Rows) error {
		var err error
		page, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (storage.PuzzleProfile, error) {
			var data string
			var p storage.PuzzleProfile
			return p, scanDecode(row, &data, &p)
		})
		return err
	})
	if before {
		slices.Reverse(page)
	}
	return page, total, err
}

// PuzzleAttempt implements storage.Tx.
func (t *tx) PuzzleAttempt(user, puzzle string) (*storage.PuzzleAttempt, error) {
	var data string
	a := new(storage.PuzzleAttempt)
	err := scanDecode(t.queryRow(`SELECT data FROM puzzle_attempts WHERE user_id = $1 AND puzzle_id = $2`, user, puzzle), &data, a)
	if err != nil {
		return nil, notFound(err, "attempt at puzzle "+puzzle)
	}
	return a, nil
}

// PutPuzzleAttempt implements storage.Tx.
func (t *tx) PutPuzzleAttempt(a *storage.PuzzleAttempt) error {
	data, err := storage.Encode(a)
	if err != nil {
		return err
	}
	t.exec(`INSERT INTO puzzle_attempts (user_id, puzzle_id, data) VALUES ($1, $2, $3)
		ON CONFLICT (user_id, puzzle_id) DO UPDATE SET data = excluded.data`, a.UserID, a.PuzzleID, string(data))
	return nil
}

// PuzzleTry implements storage.Tx.
func (t *tx) PuzzleTry(user string) (*storage.PuzzleTry, error) {
	p := new(storage.PuzzleTry)
	if err := t.settings("puzzle_tries", "user_id", user, p); err != nil {
		return nil, err
	}
	return p, nil
}

// PutPuzzleTry implements storage.Tx.
func (t *tx) PutPuzzleTry(user string, p *storage.PuzzleTry) error {
	if p == nil {
		t.exec(`DELETE FROM puzzle_tries WHERE user_id = $1`, user)
		return nil
	}
	return t.putSettings("puzzle_tries", "user_id", user, p)
}

// DailyPuzzle implements storage.Tx.
func (t *tx) DailyPuzzle(day string) (*storage.DailyPuzzle, error) {
	d := new(storage.DailyPuzzle)
	if err := t.settings("daily_puzzles", "day", day, d); err != nil {
		return nil, err
	}
	return d, nil
}

// PutDailyPuzzle implements storage.Tx: the first pick of a day is
// inserted, so that two processes picking it at once conflict.
func (t *tx) PutDailyPuzzle(d *storage.DailyPuzzle) error {
	return t.putSettings("daily_puzzles", "day", d.Day, d)
}

// DailyPost implements storage.Tx.
func (t *tx) DailyPost(guild, day string) (*storage.DailyPost, error) {
	p := new(storage.DailyPost)
	if err := t.settings("daily_posts", "post", guild+"/"+day, p); err != nil {
		return nil, err
	}
	return p, nil
}

// PutDailyPost implements storage.Tx: a first claim (which DailyPost
// found missing) is inserted, so that two processes claiming it at once
// conflict, and the one run again finds the other's.
func (t *tx) PutDailyPost(p *storage.DailyPost) error {
	return t.putSettings("daily_posts", "post", p.GuildID+"/"+p.Day, p)
}

// puzzleRecords calls fn with every record of the puzzles (Records), one
// table after the other.
func (t *tx) puzzleRecords(fn func(storage.Record) error) error {
	for _, each := range []struct {
		query string
		fn    func(row pgx.Row) error
	}{
		{`SELECT name, data FROM puzzle_sets`, func(row pgx.Row) error {
			var data string
			p := new(storage.PuzzleSetRecord)
			if err := scanDecode(row, &data, &p.Hash, &p.Name); err != nil {
				return err
			}
			return fn(storage.PuzzleSetRecords.Record(p))
		}},
		{`SELECT data FROM puzzles`, decodedRecord(storage.PuzzleRecords, fn)},
		{`SELECT data FROM puzzle_profiles`, decodedRecord(storage.PuzzleProfileRecords, fn)},
		{`SELECT data FROM puzzle_attempts`, decodedRecord(storage.PuzzleAttemptRecords, fn)},
		{`SELECT data FROM puzzle_tries`, decodedRecord(storage.PuzzleTryRecords, fn)},
		{`SELECT data FROM daily_puzzles`, decodedRecord(storage.DailyPuzzleRecords, fn)},
		{`SELECT data FROM daily_posts`, decodedRecord(storage.DailyPostRecords, fn)},
	} {
		if err := t.each(each.query, each.fn); err != nil {
			return fmt.Errorf("export %q: %w", each.query, err)
		}
	}
	return nil
}
