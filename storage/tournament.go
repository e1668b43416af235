package storage

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/engine/tournament"
)

// Tournament is a tournament of a guild: a tournament.Tournament (package
// engine/tournament: its players, rounds and results, stored in its JSON
// form) with where it is announced and which of its games are open. The
// store fills in ID. Every Tournament the store returns is the caller's
// own copy.
//
// Like a Game's board messages, AnnouncementID, EventID, Opened,
// FinalPosted and Names are Discord's: the bot's bookkeeping of what it posted,
// kept in the tournament's stored form because each must commit with the
// change it records.
type Tournament struct {
	ID        uint64 // unique, set by CreateTournament
	GuildID   string
	ChannelID string // where it was announced and its results are posted
	// AnnouncementID is the message with the Join and Leave buttons, if
	// posted; EventID the Discord scheduled event of its start, if any.
	AnnouncementID string
	EventID        string
	// Opened maps each game of a round opened so far (GameRef.String()) to
	// the channel (or thread) it is played in.
	Opened map[string]string
	// FinalPosted: the final standings have been posted.
	FinalPosted bool
	// Names are the players' names as they joined, by user ID, to show
	// them where a mention cannot be used (an image).
	Names map[string]string
	// Changed is when the tournament last changed: its wake while work is
	// owed (see Wake).
	Changed time.Time
	*tournament.Tournament
}

// TournamentGame links a stored game to the tournament game it is: the
// tournament of its guild and the game's reference in it.
type TournamentGame struct {
	ID  uint64             `json:"id"`
	Ref tournament.GameRef `json:"ref"`
}

// Key returns the name of t's wake and lease: "guild/id", as a Wake's
// ChannelID.
func (t *Tournament) Key() string { return TournamentKey(t.GuildID, t.ID) }

// TournamentKey returns the name of the wake of the tournament id of
// guild, "guild/id".
func TournamentKey(guild string, id uint64) string { return guildKey(guild, id) }

// ParseTournamentKey is the inverse of TournamentKey.
func ParseTournamentKey(k string) (guild string, id uint64, err error) {
	return parseGuildKey(k, "tournament")
}

// Pending returns the games of the current round that are still pending
// and not opened yet: the games the bot owes.
func (t *Tournament) Pending() []tournament.GameRef {
	phase, n := t.State()
	if phase != tournament.Playing {
		return nil
	}
	var out []tournament.GameRef
	r := t.Rounds()[n-1]
	for _, p := range r.Pairings {
		for i, g := range p.Games {
			ref := tournament.GameRef{Round: n, Board: p.Board, Game: i + 1}
			if _, ok := t.Opened[ref.String()]; !ok && g.Result == tournament.Pending {
				out = append(out, ref)
			}
		}
	}
	return out
}

// Wake returns when the tournament is next due to the scheduler: at once
// (Changed) while the bot owes it work (a start that is due, games to
// open, a round to pair, the final standings to post), else its start
// time or the deadline of its round, or zero.
func (t *Tournament) Wake() time.Time {
	phase, n := t.State()
	switch {
	case phase == tournament.Registration && t.Due(t.Changed):
		return t.Changed
	case phase == tournament.Registration:
		return t.Settings().Start
	case phase == tournament.Playing && len(t.Pending()) > 0:
		return t.Changed
	case phase == tournament.Playing:
		return t.Rounds()[n-1].Deadline
	case phase == tournament.Between, phase == tournament.Finished && !t.FinalPosted:
		return t.Changed
	}
	return time.Time{}
}

// tournamentRecord is how a Tournament is stored.
type tournamentRecord struct {
	ID             uint64                 `json:"id"`
	GuildID        string                 `json:"guild"`
	ChannelID      string                 `json:"channel"`
	AnnouncementID string                 `json:"announcement,omitempty"`
	EventID        string                 `json:"event,omitempty"`
	Opened         map[string]string      `json:"opened,omitempty"`
	FinalPosted    bool                   `json:"final_posted,omitempty"`
	Names          map[string]string      `json:"names,omitempty"`
	Changed        time.Time              `json:"changed"`
	Tournament     *tournament.Tournament `json:"tournament"`
	WakeAt         time.Time              `json:"wake_at,omitzero"`
}

func (t *Tournament) record() *tournamentRecord {
	return &tournamentRecord{ID: t.ID, GuildID: t.GuildID, ChannelID: t.ChannelID, AnnouncementID: t.AnnouncementID,
		EventID: t.EventID, Opened: t.Opened, FinalPosted: t.FinalPosted, Names: t.Names, Changed: t.Changed, Tournament: t.Tournament, WakeAt: t.Wake()}
}

// EncodeTournament returns the stored form of t, indexed under its wake
// time t.Wake().
func EncodeTournament(t *Tournament) ([]byte, error) { return encode(t.record()) }

// DecodeTournament reads the stored form of a tournament, as
// EncodeTournament writes it, and returns it with its wake time.
func DecodeTournament(b []byte) (*Tournament, time.Time, error) {
	r := new(tournamentRecord)
	if err := decode(b, r); err != nil {
		return nil, time.Time{}, err
	}
	if r.Tournament == nil {
		return nil, time.Time{}, fmt.Errorf("tournament %d: %w: no tournament", r.ID, ErrCorrupt)
	}
	return &Tournament{ID: r.ID, GuildID: r.GuildID, ChannelID: r.ChannelID, AnnouncementID: r.AnnouncementID, EventID: r.EventID,
		Opened: r.Opened, FinalPosted: r.FinalPosted, Names: r.Names, Changed: r.Changed, Tournament: r.Tournament}, r.WakeAt, nil
}

// check returns an error wrapping ErrInvalid if t may not be stored.
func (t *Tournament) check() error {
	if t.Tournament == nil {
		return fmt.Errorf("%w: no tournament", ErrInvalid)
	}
	if err := checkID("guild ID", t.GuildID); err != nil {
		return err
	}
	return checkID("channel ID", t.ChannelID)
}

// CreateTournament stores t as a new tournament of its guild, sets t.ID
// and returns nil; ErrInvalid if t may not be stored.
func (s *Core) CreateTournament(ctx context.Context, t *Tournament) error {
	if err := t.check(); err != nil {
		return fmt.Errorf("create tournament: %w", err)
	}
	id, err := inTx(ctx, s.b.Update, func(tx Tx) (uint64, error) {
		id, err := tx.NextID(TournamentIDs)
		if err != nil {
			return 0, err
		}
		n := *t
		n.ID = id
		return id, tx.PutTournament(&n, time.Time{})
	})
	if err != nil {
		return fmt.Errorf("create tournament: %w", err)
	}
	t.ID = id
	return nil
}

// Tournament returns the tournament id of the guild, or an error wrapping
// ErrNotFound.
func (s *Core) Tournament(ctx context.Context, guildID string, id uint64) (*Tournament, error) {
	t, err := inTx(ctx, s.b.View, func(tx Tx) (*Tournament, error) {
		t, _, err := tx.Tournament(guildID, id)
		return t, err
	})
	if err != nil {
		return nil, fmt.Errorf("tournament %d: %w", id, err)
	}
	return t, nil
}

// GuildTournaments returns the tournaments of the guild, newest first.
func (s *Core) GuildTournaments(ctx context.Context, guildID string) ([]*Tournament, error) {
	out, err := inTx(ctx, s.b.View, func(tx Tx) ([]*Tournament, error) { return tx.GuildTournaments(guildID) })
	if err != nil {
		return nil, fmt.Errorf("tournaments of guild %s: %w", guildID, err)
	}
	return out, nil
}

// UpdateTournament changes the tournament id of the guild in one
// transaction, as UpdateGame does a game: fn changes it (through the
// tournament's own methods, which refuse what its rules forbid), and what
// fn leaves is stored, with Changed set to now, or nothing if fn returns
// an error. Writes to a tournament are serialized, so a round is paired
// once whoever asks. fn must be quick and must not call the store.
func (s *Core) UpdateTournament(ctx context.Context, guildID string, id uint64, now time.Time, fn func(*Tournament) error) (*Tournament, error) {
	t, err := inTx(ctx, s.b.Update, func(tx Tx) (*Tournament, error) {
		t, wake, err := tx.Tournament(guildID, id)
		if err != nil {
			return nil, err
		}
		if err := fn(t); err != nil {
			return nil, err
		}
		if t.ID != id || t.GuildID != guildID {
			return nil, fmt.Errorf("%w: tournament %d: the ID and guild may not change", ErrInvalid, id)
		}
		if err := t.check(); err != nil {
			return nil, err
		}
		t.Changed = now
		return t, tx.PutTournament(t, wake)
	})
	if err != nil {
		return nil, fmt.Errorf("update tournament %d: %w", id, err)
	}
	return t, nil
}

// OpenTournamentGame stores g, a game of the tournament id of the guild
// (g.Tournament names it), as the active game of its channel, sets g.ID,
// and marks the game opened in the tournament, in one transaction, so
// that a tournament game is opened once whoever opens it. It returns an
// error wrapping ErrOpened if it is open already (or no longer pending),
// ErrChannelBusy if the channel is taken, ErrInvalid if g may not be
// stored.
func (s *Core) OpenTournamentGame(ctx context.Context, g *Game, now time.Time) error {
	if g.Tournament == nil {
		return fmt.Errorf("open tournament game: %w: the game names no tournament", ErrInvalid)
	}
	link := *g.Tournament
	id, err := inTx(ctx, s.b.Update, func(tx Tx) (uint64, error) {
		t, wake, err := tx.Tournament(g.GuildID, link.ID)
		if err != nil {
			return 0, err
		}
		if !slices.Contains(t.Pending(), link.Ref) {
			return 0, fmt.Errorf("game %v: %w", link.Ref, ErrOpened)
		}
		id, err := createGame(tx, g)
		if err != nil {
			return 0, err
		}
		if t.Opened == nil {
			t.Opened = map[string]string{}
		}
		t.Opened[link.Ref.String()] = g.ChannelID
		t.Changed = now
		return id, tx.PutTournament(t, wake)
	})
	if err != nil {
		return fmt.Errorf("open tournament game: %w", err)
	}
	g.ID = id
	return nil
}

// recordTournamentGame records in the tournament the result of g, a
// tournament game that has just ended, in the transaction that finishes
// it: a no-show (lost on time before a first move) withdraws its player,
// a game called off (aborted, abandoned) changes nothing and is left to
// the round's deadline, and a result recorded already (an adjudication,
// which the round records before it ends the game as adjudicated) is
// kept.
func recordTournamentGame(tx Tx, g *Game) error {
	t, wake, err := tx.Tournament(g.GuildID, g.Tournament.ID)
	if err != nil {
		return err
	}
	res, ref := g.Result(), g.Tournament.Ref
	first := g.Player(g.First()).UserID
	switch {
	case res.Ending == game.Unstarted:
		err = t.NoShow(ref, g.Player(res.Winner.Other()).UserID, res.At)
	case !res.Rated():
		return nil
	case res.Draw:
		err = t.Record(ref, tournament.Drawn, res.At)
	case g.Player(res.Winner).UserID == first:
		err = t.Record(ref, tournament.FirstWon, res.At)
	default:
		err = t.Record(ref, tournament.SecondWon, res.At)
	}
	if errors.Is(err, tournament.ErrResultRecorded) || errors.Is(err, tournament.ErrNoSuchGame) ||
		errors.Is(err, tournament.ErrCancelled) || errors.Is(err, tournament.ErrFinished) {
		return nil // adjudicated, or the tournament moved on
	}
	if err != nil {
		return err
	}
	t.Changed = res.At
	return tx.PutTournament(t, wake)
}
