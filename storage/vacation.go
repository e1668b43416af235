package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/kulami/kulami/engine/game"
)

// Vacation is a player's vacation bank (game.Vacation), the same in every
// guild, and what the player was told of the vacation under way. The
// games it stops are told with game.Game.Away and Back, in the
// transaction that changes it (UpdateVacation).
type Vacation struct {
	UserID string `json:"user"`
	game.Vacation
	// Warned is set once the player was warned that the vacation under
	// way runs out (game.Vacation.Notice); a new vacation clears it.
	Warned bool `json:"warned,omitempty"`
	// NoticeAt, if not zero, is when the warning is due instead of
	// game.Vacation.Notice: held back out of the player's quiet hours.
	NoticeAt time.Time `json:"notice_at,omitzero"`
}

// Wake returns when the vacation is next due to the scheduler: its
// NoticeAt (else Notice) until the player was warned, then its end; zero when no vacation
// is under way. Its record is indexed under it.
func (v *Vacation) Wake() time.Time {
	switch {
	case !v.On():
		return time.Time{}
	case !v.Warned && !v.NoticeAt.IsZero():
		return v.NoticeAt
	case !v.Warned:
		return v.Notice()
	}
	return v.Ends()
}

// check returns an error wrapping ErrInvalid if v may not be stored.
func (v *Vacation) check() error {
	if err := checkID("user ID", v.UserID); err != nil {
		return err
	}
	if v.Joined.IsZero() || v.Bank < 0 {
		return fmt.Errorf("%w: vacation of %s: no bank opened, or a negative one", ErrInvalid, v.UserID)
	}
	return nil
}

// Vacation returns the vacation bank of the user, or an error wrapping
// ErrNotFound if none was opened.
func (s *Core) Vacation(ctx context.Context, userID string) (*Vacation, error) {
	v, err := inTx(ctx, s.b.View, func(tx Tx) (*Vacation, error) {
		v, _, err := tx.Vacation(userID)
		return v, err
	})
	if err != nil {
		return nil, fmt.Errorf("vacation of %s: %w", userID, err)
	}
	return v, nil
}

// UpdateVacation changes the vacation bank of the user and their active
// games in one transaction: fn is called with the stored bank (one with
// only UserID if none was opened: fn opens it, with game.Vacation.Open) and
// every active game the user plays, and what it leaves is stored, the
// bank indexed under its Wake. It returns the bank and the games as
// stored. If fn returns an error, or leaves a bank without Joined, a game
// that changed what may not change or one that is over (ErrInvalid),
// nothing is written.
//
// The user's games are found by an index of the active games by player
// (PlayerUsers), kept by every write of a game, so finding them reads
// those games only, however many others run. fn must be quick and must
// not call the store.
func (s *Core) UpdateVacation(ctx context.Context, userID string, fn func(v *Vacation, games []*Game) error) (*Vacation, []*Game, error) {
	type result struct {
		v     *Vacation
		games []*Game
	}
	r, err := inTx(ctx, s.b.Update, func(tx Tx) (result, error) {
		if err := checkID("user ID", userID); err != nil {
			return result{}, err
		}
		v, oldWake, err := tx.Vacation(userID)
		if isNotFound(err) {
			v, err = &Vacation{UserID: userID}, nil
		}
		if err != nil {
			return result{}, err
		}
		games, err := updatePlayerGames(tx, userID, "a vacation", func(games []*Game) error {
			if err := fn(v, games); err != nil {
				return err
			}
			if v.UserID != userID {
				return fmt.Errorf("%w: the user of a vacation may not change", ErrInvalid)
			}
			return v.check()
		})
		if err != nil {
			return result{}, err
		}
		return result{v, games}, tx.PutVacation(v, oldWake)
	})
	if err != nil {
		return nil, nil, fmt.Errorf("update vacation of %s: %w", userID, err)
	}
	return r.v, r.games, nil
}

// openBanks opens the vacation bank of each person of g, a game being
// stored for the first time, who has none (game.Vacation.Open): a bank
// opens with its player's first game, whose start its weeks count from.
// A game against the computer opens the person's.
func openBanks(tx Tx, g *Game) error {
	for _, user := range PlayerUsers(g.Players()) {
		if user == "" {
			continue
		}
		v := &Vacation{UserID: user}
		v.Open([]*game.Game{g.Game}, g.Created())
		if err := tx.OpenVacation(v); err != nil {
			return err
		}
	}
	return nil
}

// PlayerGames returns the active games the user plays, in every guild.
// Finding them costs as in UpdateVacation.
func (s *Core) PlayerGames(ctx context.Context, userID string) ([]*Game, error) {
	games, err := inTx(ctx, s.b.View, func(tx Tx) ([]*Game, error) {
		var games []*Game
		err := tx.PlayerGames(userID, func(g *Game, _ time.Time) error {
			games = append(games, g)
			return nil
		})
		return games, err
	})
	if err != nil {
		return nil, fmt.Errorf("read the games of %s: %w", userID, err)
	}
	return games, nil
}

// NewestPlayerGames returns the first limit active games the user plays,
// in every guild, newest first (by ID, as GuildGames), and how many they
// are: the player's index entries are counted, and only the games
// returned are read. limit must be positive (ErrInvalid).
func (s *Core) NewestPlayerGames(ctx context.Context, userID string, limit int) (games []*Game, total int, err error) {
	if limit <= 0 {
		return nil, 0, fmt.Errorf("newest games of %s: %w: the limit %d must be positive", userID, ErrInvalid, limit)
	}
	err = s.b.View(ctx, func(tx Tx) error {
		games, total, err = tx.NewestPlayerGames(userID, limit)
		return err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("newest games of %s: %w", userID, err)
	}
	return games, total, nil
}

// UpdatePlayerGames changes every active game the user plays in one
// transaction: fn changes them (game.Game.SetLocal, say), and what it
// leaves is stored; it returns them as stored. If fn returns an error, or
// leaves a game that changed what may not change or one that is over
// (ErrInvalid), nothing is written. Finding the games costs as in
// UpdateVacation; fn must be quick and must not call the store.
func (s *Core) UpdatePlayerGames(ctx context.Context, userID string, fn func(games []*Game) error) ([]*Game, error) {
	games, err := inTx(ctx, s.b.Update, func(tx Tx) ([]*Game, error) {
		if err := checkID("user ID", userID); err != nil {
			return nil, err
		}
		return updatePlayerGames(tx, userID, "a change of a player's games", fn)
	})
	if err != nil {
		return nil, fmt.Errorf("update the games of %s: %w", userID, err)
	}
	return games, nil
}

// updatePlayerGames calls fn with every active game of the user, in tx,
// and stores them as fn leaves them, unless fn fails or changed one as it
// may not; what names the change in the refusal of a game it ended.
func updatePlayerGames(tx Tx, userID, what string, fn func(games []*Game) error) ([]*Game, error) {
	var games []*Game
	var wakes []time.Time
	if err := tx.PlayerGames(userID, func(g *Game, wake time.Time) error {
		games, wakes = append(games, g), append(wakes, wake)
		return nil
	}); err != nil {
		return nil, err
	}
	olds := make([]*gameRecord, len(games))
	for i, g := range games {
		olds[i] = g.record()
	}
	if err := fn(games); err != nil {
		return nil, err
	}
	for i, g := range games {
		if err := g.check(); err != nil {
			return nil, err
		}
		if err := g.checkUpdate(olds[i]); err != nil {
			return nil, err
		}
		if g.Over() {
			return nil, fmt.Errorf("%w: game %d: %s may not end a game", ErrInvalid, g.ID, what)
		}
		if err := tx.PutGame(g, wakes[i]); err != nil {
			return nil, err
		}
	}
	return games, nil
}

// PlayerUsers returns the users under whom a game between players is
// found by PlayerGames, by color: each person's UserID, and "" for the
// computer, whose games are nobody's (its UserID may be the bot's).
func PlayerUsers(players [2]game.Player) [2]string {
	var users [2]string
	for c, p := range players {
		if !p.IsAI() {
			users[c] = p.UserID
		}
	}
	return users
}
