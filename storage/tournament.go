package storage

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

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
	// Double: the game ended as the forfeit that made its pairing a
	// double forfeit (tournament.Pairing.DoubleForfeit), as the
	// tournament recorded it in the game's last transaction.
	Double bool `json:"double,omitempty"`
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

// Pending returns the games of the current round still to be opened:
// the games the bot owes (tournament.Tournament.ToOpen, with the games
// Opened).
func (t *Tournament) Pending() []tournament.GameRef { return t.ToOpen(t.opened) }

// opened reports whether the bot opened the game ref.
func (t *Tournament) opened(ref tournament.GameRef) bool {
	_, ok := t.Opened[ref.String()]
	return ok
}

// Step returns the step the tournament owes the bot and when
// (tournament.Tournament.Next, with what the bot opened and posted).
func (t *Tournament) Step() (tournament.Step, time.Time) {
	return t.Next(tournament.Progress{Opened: t.opened, FinalPosted: t.FinalPosted}, t.Changed)
}

// Wake returns when the tournament is next due to the scheduler: when its
// Step is due, or zero when none is.
func (t *Tournament) Wake() time.Time {
	_, at := t.Step()
	return at
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

// CancelTournament calls the tournament id of the guild off at now and
// lets its games in progress go on as casual games, in one transaction:
// the tournament's Cancel, then each of its games in progress that is
// open and still linked to it is released (tournament.Release) and loses
// its link (Game.Tournament); fn, if not nil, then changes the games
// released (the bot's bookkeeping of their boards, as an UpdateGame's
// function may), and they are stored. It returns the tournament and the
// games released, for the caller to tell their players; an error
// wrapping ErrNotFound, or the tournament's refusal (ErrFinished,
// ErrCancelled), and nothing changed.
func (s *Core) CancelTournament(ctx context.Context, guildID string, id uint64, now time.Time, fn func(released []*Game)) (*Tournament, []*Game, error) {
	type cancelled struct {
		t     *Tournament
		games []*Game
	}
	out, err := inTx(ctx, s.b.Update, func(tx Tx) (cancelled, error) {
		t, wake, err := tx.Tournament(guildID, id)
		if err != nil {
			return cancelled{}, err
		}
		if err := t.Cancel(now); err != nil {
			return cancelled{}, err
		}
		var games []*Game
		var wakes []time.Time
		for _, ref := range t.InProgress() {
			ch, ok := t.Opened[ref.String()]
			if !ok {
				continue
			}
			g, gwake, err := tx.Game(ch)
			if errors.Is(err, ErrNotFound) {
				continue // ended meanwhile without a result
			} else if err != nil {
				return cancelled{}, err
			}
			if l := g.Tournament; l == nil || l.ID != id || l.Ref != ref {
				continue // the thread holds another game now
			}
			if err := tournament.Release(g.Game); err != nil {
				return cancelled{}, err
			}
			g.Tournament = nil
			games, wakes = append(games, g), append(wakes, gwake)
		}
		if fn != nil {
			fn(games)
		}
		for i, g := range games {
			if err := tx.PutGame(g, wakes[i]); err != nil {
				return cancelled{}, err
			}
		}
		t.Changed = now
		return cancelled{t, games}, tx.PutTournament(t, wake)
	})
	if err != nil {
		return nil, nil, fmt.Errorf("cancel tournament %d: %w", id, err)
	}
	return out.t, out.games, nil
}

// recordTournamentGame records in the tournament the end of g, a
// tournament game, in the transaction that finishes it: what the
// tournament makes of it is its own rule (tournament.Tournament.
// GameEnded), which the link of g then notes (TournamentGame.Double).
func recordTournamentGame(tx Tx, g *Game) error {
	t, wake, err := tx.Tournament(g.GuildID, g.Tournament.ID)
	if err != nil {
		return err
	}
	ref := g.Tournament.Ref
	changed, err := t.GameEnded(ref, g.Game)
	if errors.Is(err, tournament.ErrNotInGame) {
		return nil // a link that names another game: the game ends all the same
	}
	if err != nil || !changed {
		return err
	}
	if p, err := t.Pairing(ref); err == nil {
		g.Tournament.Double = p.DoubleForfeit()
	}
	t.Changed = g.Result().At
	return tx.PutTournament(t, wake)
}
