package challenge

import (
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
)

// RematchPlayers returns the players of a rematch of g, red first: the
// player who moved second in g moves first, and so plays red.
func RematchPlayers(g *game.Game) [2]game.Player {
	return [2]game.Player{g.Player(g.First().Other()), g.Player(g.First())}
}

// RematchLayout returns the board of a rematch on l: the classic square
// again, or a new board of the same kind, drawn from seed, when l was
// drawn at random.
func RematchLayout(l *engine.Layout, seed uint64) *engine.Layout {
	switch {
	case l.Equal(engine.Square()):
		return engine.Square()
	case l.IsSquare():
		return engine.RandomSquare(seed)
	}
	return engine.RandomIrregular(seed)
}

// Rematch returns the challenge in which by, a player of the game g, offers
// the other player a rematch on layout at now, open for open: the rules
// and clock (and timeouts) of g, the first move to the player who moved second
// (RematchPlayers). by's name is the one the challenge shows. It returns
// an error wrapping game.ErrNotAPlayer if by does not play in g.
func Rematch(g *game.Game, by game.Player, layout *engine.Layout, now time.Time, open time.Duration) (*Challenge, error) {
	me, err := g.Seat(by.UserID)
	if err != nil {
		return nil, err
	}
	first := FirstOpponent
	if same(RematchPlayers(g)[engine.Red], by) {
		first = FirstChallenger
	}
	return New(Config{From: by, To: g.Player(me.Other()), Layout: layout, Rules: g.Rules(), First: first,
		MoveTime: g.MoveTime(), Increment: g.Clock().Increment, Kind: g.Clock().Kind, Timeouts: g.Timeouts(), Weekends: g.Weekends(), Open: open}, now)
}

// CheckRematch returns nil if by may offer other a rematch while open is
// the open challenge where it would be offered, else an error wrapping
// ErrRematchOffered if open is by's offer to other, or ErrRematchAsked if
// it is other's offer to by.
func CheckRematch(open *Challenge, by, other game.Player) error {
	switch {
	case open.To == (game.Player{}):
		return nil
	case same(open.From, by) && same(open.To, other):
		return ErrRematchOffered
	case same(open.From, other) && same(open.To, by):
		return ErrRematchAsked
	}
	return nil
}
