package storage

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// Record is one stored value, for copying a store into another of any
// backend (Export, Import) and comparing them (Compare): a value of one
// of the kinds of records below, made by its kind's Record method. The
// zero Record holds nothing, and Import refuses it.
type Record struct {
	kind recordKind
	v    any // a *T of the RecordKind[T] kind
}

// RecordKind is a kind of record, whose values are *T: its name, the key
// that tells a record from the others of its kind, how Import puts it
// and, if not the value itself, what Compare compares (its stored form).
type RecordKind[T any] struct {
	name   string
	key    func(*T) string
	put    func(Tx, *T) error
	stored func(*T) any // nil: the value itself
}

// The kinds of records, which Export yields and Import puts: adding a
// kind of stored value adds it here, and a row to each backend's
// Tx.Records, which reads it back.
var (
	GameRecords = &RecordKind[Game]{name: "game",
		key:    func(g *Game) string { return g.ChannelID },
		put:    func(tx Tx, g *Game) error { return tx.PutGame(g, time.Time{}) },
		stored: func(g *Game) any { return g.record() }}
	ChallengeRecords = &RecordKind[Challenge]{name: "challenge",
		key: func(c *Challenge) string { return c.ChannelID },
		put: func(tx Tx, c *Challenge) error { return tx.PutChallenge(c, time.Time{}) }}
	FinishedRecords = &RecordKind[FinishedGame]{name: "finished game",
		key:    func(f *FinishedGame) string { return f.GuildID + "/" + strconv.FormatUint(f.ID, 10) },
		put:    Tx.PutFinished,
		stored: func(f *FinishedGame) any { return f.stored() }}
	HistoryRecords = &RecordKind[HistoryRecord]{name: "history entry",
		key: func(h *HistoryRecord) string {
			return h.GuildID + "/" + h.PlayerID + "/" + strconv.FormatUint(h.Entry.GameID, 10)
		},
		put: func(tx Tx, h *HistoryRecord) error { return tx.PutHistory(h.GuildID, h.PlayerID, &h.Entry) }}
	ProfileRecords = &RecordKind[Profile]{name: "profile",
		key: func(p *Profile) string { return p.GuildID + "/" + p.Ladder.String() + "/" + p.UserID },
		put: func(tx Tx, p *Profile) error { return tx.PutProfile(p, nil) }}
	SeasonProfileRecords = &RecordKind[Profile]{name: "season profile",
		key: func(p *Profile) string {
			return p.GuildID + "/" + p.Season.String() + "/" + p.Ladder.String() + "/" + p.UserID
		},
		put: func(tx Tx, p *Profile) error { return tx.PutSeasonProfile(p, nil) }}
	GuildSettingsRecords = &RecordKind[GuildSettingsEntry]{name: "guild settings",
		key: func(g *GuildSettingsEntry) string { return g.GuildID },
		put: func(tx Tx, g *GuildSettingsEntry) error { return tx.PutGuildSettings(g.GuildID, &g.Settings) }}
	UserSettingsRecords = &RecordKind[UserSettingsEntry]{name: "user settings",
		key: func(u *UserSettingsEntry) string { return u.UserID },
		put: func(tx Tx, u *UserSettingsEntry) error { return tx.PutUserSettings(u.UserID, &u.Settings) }}
	VacationRecords = &RecordKind[Vacation]{name: "vacation",
		key: func(v *Vacation) string { return v.UserID },
		put: func(tx Tx, v *Vacation) error { return tx.PutVacation(v, time.Time{}) }}
	ReviewRecords = &RecordKind[ReviewRecord]{name: "review",
		key: func(r *ReviewRecord) string { return r.GuildID + "/" + strconv.FormatUint(r.GameID, 10) },
		put: func(tx Tx, r *ReviewRecord) error { return tx.PutReview(r.GuildID, r.GameID, r.Data) }}
	TournamentRecords = &RecordKind[Tournament]{name: "tournament",
		key:    func(t *Tournament) string { return t.Key() },
		put:    func(tx Tx, t *Tournament) error { return tx.PutTournament(t, time.Time{}) },
		stored: func(t *Tournament) any { return t.record() }}
	// AliveRecords holds when the bot was last alive: one record, if any.
	AliveRecords = &RecordKind[time.Time]{name: "alive",
		key: func(*time.Time) string { return "" },
		put: func(tx Tx, t *time.Time) error { return tx.PutAlive(*t) }}
	// SequenceRecords hold the last ID each sequence gave.
	SequenceRecords = &RecordKind[SequenceRecord]{name: "sequence",
		key: func(s *SequenceRecord) string { return s.Name.String() },
		put: func(tx Tx, s *SequenceRecord) error { return tx.SetSequence(s.Name, s.Value) }}
	PuzzleRecords = &RecordKind[PuzzleEntry]{name: "puzzle",
		key: (*PuzzleEntry).ID,
		put: func(tx Tx, e *PuzzleEntry) error { return tx.PutPuzzle(e, nil) }}
	// PuzzleSetRecords hold the hash of each puzzle set loaded, so that
	// a copy does not load its set again.
	PuzzleSetRecords = &RecordKind[PuzzleSetRecord]{name: "puzzle set",
		key: func(p *PuzzleSetRecord) string { return p.Name },
		put: func(tx Tx, p *PuzzleSetRecord) error { return tx.PutPuzzleSet(p.Name, p.Hash) }}
	PuzzleProfileRecords = &RecordKind[PuzzleProfile]{name: "puzzle profile",
		key: func(p *PuzzleProfile) string { return p.UserID },
		put: func(tx Tx, p *PuzzleProfile) error { return tx.PutPuzzleProfile(p, nil) }}
	PuzzleAttemptRecords = &RecordKind[PuzzleAttempt]{name: "puzzle attempt",
		key: func(a *PuzzleAttempt) string { return a.UserID + "/" + a.PuzzleID },
		put: Tx.PutPuzzleAttempt}
	PuzzleTryRecords = &RecordKind[PuzzleTry]{name: "puzzle under way",
		key: func(p *PuzzleTry) string { return p.UserID },
		put: func(tx Tx, p *PuzzleTry) error { return tx.PutPuzzleTry(p.UserID, p) }}
	DailyPuzzleRecords = &RecordKind[DailyPuzzle]{name: "daily puzzle",
		key: func(d *DailyPuzzle) string { return d.Day },
		put: Tx.PutDailyPuzzle}
	DailyPostRecords = &RecordKind[DailyPost]{name: "daily post",
		key: func(p *DailyPost) string { return p.GuildID + "/" + p.Day },
		put: Tx.PutDailyPost}
	// RoleLinkRecords hold the users' links to Linked Roles, their
	// tokens sealed as stored (a copy needs the same key to use them).
	RoleLinkRecords = &RecordKind[RoleLink]{name: "role link",
		key: func(l *RoleLink) string { return l.UserID },
		put: Tx.PutRoleLink}
)

// Record returns v as a record of kind k.
func (k *RecordKind[T]) Record(v *T) Record { return Record{kind: k, v: v} }

// Of returns the value of r and true if r is a record of kind k, or nil
// and false.
func (k *RecordKind[T]) Of(r Record) (*T, bool) {
	if r.kind != recordKind(k) {
		return nil, false
	}
	return r.v.(*T), true
}

// recordKind is a RecordKind[T] of any T, whose methods take a Record's
// value, a *T.
type recordKind interface {
	kindName() string         // the kind's name
	keyOf(v any) string       // v's key
	putIn(tx Tx, v any) error // v put in tx
	storedOf(v any) any       // what Compare compares of v
}

func (k *RecordKind[T]) kindName() string         { return k.name }
func (k *RecordKind[T]) keyOf(v any) string       { return k.key(v.(*T)) }
func (k *RecordKind[T]) putIn(tx Tx, v any) error { return k.put(tx, v.(*T)) }
func (k *RecordKind[T]) storedOf(v any) any {
	if k.stored == nil {
		return v
	}
	return k.stored(v.(*T))
}

// HistoryRecord is an entry of a player's history in a guild.
type HistoryRecord struct {
	GuildID  string
	PlayerID string // the player's ProfileID
	Entry    HistoryEntry
}

// GuildSettingsEntry are the settings a guild changed.
type GuildSettingsEntry struct {
	GuildID  string
	Settings GuildSettings
}

// UserSettingsEntry are the settings a user changed.
type UserSettingsEntry struct {
	UserID   string
	Settings UserSettings
}

// ReviewRecord is the review of a finished game.
type ReviewRecord struct {
	GuildID string
	GameID  uint64
	Data    json.RawMessage
}

// PuzzleSetRecord is the hash of the puzzle set named Name loaded last
// (LoadPuzzles).
type PuzzleSetRecord struct {
	Name string
	Hash string
}

// SequenceRecord is the last ID a sequence gave.
type SequenceRecord struct {
	Name  Sequence
	Value uint64
}

// Kind returns the name of r's kind ("game", "challenge", …) and a key
// that tells r from every other record of its kind; "" for the zero
// Record.
func (r Record) Kind() (kind, key string) {
	if r.kind == nil {
		return "", ""
	}
	return r.kind.kindName(), r.kind.keyOf(r.v)
}

// stored returns what r holds as a store keeps it, for Compare.
func (r Record) stored() any {
	if r.kind == nil {
		return nil
	}
	return r.kind.storedOf(r.v)
}

// put writes r, which is not the zero Record, in tx, as it was in the
// store it came from.
func (r Record) put(tx Tx) error { return r.kind.putIn(tx, r.v) }

// Export calls fn with every record of the store, as of one moment (one
// read transaction), and returns fn's first error.
func (s *Core) Export(ctx context.Context, fn func(Record) error) error {
	if err := s.b.View(ctx, func(tx Tx) error { return tx.Records(fn) }); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}

// ImportBatch is how many records Import writes in one transaction.
const ImportBatch = 1000

// Import writes every record that records yields into the store, which
// must be empty (ErrInvalid otherwise), ImportBatch records a
// transaction, so that its memory and its transactions stay small however
// large the store it copies: the first transaction checks that the store
// is empty, and one that fails leaves the batches before it written (a
// failed import leaves a store to throw away; a refused store, or a
// refused first batch, is left as it was). records is called with ctx
// (another store's Export fits). It returns the number of records of
// each kind (see Record.Kind).
func (s *Core) Import(ctx context.Context, records func(ctx context.Context, fn func(Record) error) error) (map[string]int, error) {
	counts := map[string]int{}
	batch := make([]Record, 0, ImportBatch)
	first := true
	flush := func() error {
		err := s.b.Update(ctx, func(tx Tx) error {
			if first {
				if err := checkEmpty(tx); err != nil {
					return err
				}
			}
			for _, r := range batch {
				if err := r.put(tx); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		first = false
		for _, r := range batch {
			kind, _ := r.Kind()
			counts[kind]++
		}
		batch = batch[:0]
		return nil
	}
	err := records(ctx, func(r Record) error {
		if r.kind == nil {
			return fmt.Errorf("%w: an empty record", ErrInvalid)
		}
		if batch = append(batch, r); len(batch) == ImportBatch {
			return flush()
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	return counts, nil
}

// checkEmpty returns an error wrapping ErrInvalid unless the store of tx
// holds no record.
func checkEmpty(tx Tx) error {
	empty := true
	if err := tx.Records(func(r Record) error {
		kind, key := r.Kind()
		empty = false
		return fmt.Errorf("%w: the store is not empty (it holds the %s %q); import into a new one", ErrInvalid, kind, key)
	}); !empty {
		return err
	}
	return nil
}

// Exporter is a store that Compare can read: Core, and so every backend.
type Exporter interface {
	Export(ctx context.Context, fn func(Record) error) error
}

// Compare compares every record of the stores a and b. It returns the
// number of records of each kind, and an error that names the first
// records that differ (or are in one store only), if any.
//
// It reads each store once and keeps, for each kind, a count and a sum
// of the records' hashes (an order-free digest), so that its memory does
// not grow with the stores; only for a kind whose digests differ does it
// read both stores again, keeping that kind's records of a, to name the
// record that differs.
func Compare(ctx context.Context, a, b Exporter) (map[string]int, error) {
	da, err := digests(ctx, a)
	if err != nil {
		return nil, err
	}
	db, err := digests(ctx, b)
	if err != nil {
		return nil, err
	}
	counts := map[string]int{}
	differ := map[string]bool{}
	for kind, d := range da {
		if db[kind] != d {
			differ[kind] = true
		}
		counts[kind] = d.n
	}
	for kind := range db {
		if _, ok := da[kind]; !ok {
			differ[kind] = true
		}
	}
	if len(differ) == 0 {
		return counts, nil
	}
	if err := compareKinds(ctx, a, b, differ); err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("the records differ, but not one by one (a hash collision?)")
}

// digest is an order-free digest of the records of one kind: their
// number and the sum, lane by lane, of their SHA-256 hashes.
type digest struct {
	n   int
	sum [4]uint64
}

// digests returns the digest of each kind of record of s.
func digests(ctx context.Context, s Exporter) (map[string]digest, error) {
	out := map[string]digest{}
	err := s.Export(ctx, func(r Record) error {
		kind, key := r.Kind()
		v, err := json.Marshal(r.stored())
		if err != nil {
			return err
		}
		h := sha256.New()
		h.Write([]byte(key))
		h.Write([]byte{0})
		h.Write(v)
		sum := h.Sum(nil)
		d := out[kind]
		d.n++
		for i := range d.sum {
			d.sum[i] += binary.BigEndian.Uint64(sum[8*i:])
		}
		out[kind] = d
		return nil
	})
	return out, err
}

// compareKinds compares the records of the kinds named of a and b, one
// by one, and returns an error that names the first that differ.
func compareKinds(ctx context.Context, a, b Exporter, kinds map[string]bool) error {
	want := map[string][]byte{}
	err := a.Export(ctx, func(r Record) error {
		kind, key := r.Kind()
		if !kinds[kind] {
			return nil
		}
		v, err := json.Marshal(r.stored())
		want[kind+" "+key] = v
		return err
	})
	if err != nil {
		return err
	}
	err = b.Export(ctx, func(r Record) error {
		kind, key := r.Kind()
		if !kinds[kind] {
			return nil
		}
		v, err := json.Marshal(r.stored())
		if err != nil {
			return err
		}
		w, ok := want[kind+" "+key]
		switch {
		case !ok:
			return fmt.Errorf("the %s %q is only in the second store", kind, key)
		case !bytes.Equal(w, v):
			return fmt.Errorf("the %s %q differs:\n%s\n%s", kind, key, w, v)
		}
		delete(want, kind+" "+key)
		return nil
	})
	if err != nil {
		return err
	}
	for k := range want {
		return fmt.Errorf("the %s is only in the first store", k)
	}
	return nil
}
