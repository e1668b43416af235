package bot

import (
	"context"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/challenge"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
)

// newGame makes a new game at now the way every game starts, whoever
// starts it (a challenge accepted, a game against the computer or its
// rematch, a tournament's round): build makes it, told where each player
// lives (their time zone and quiet hours, for its deadlines); then the
// clock of each player on vacation is stopped (awayAtStart). It returns
// when each of those returns, for tellAllAway once the game is shown.
func (vs *vacations) newGame(ctx context.Context, now time.Time, build func(challenge.Where) (*game.Game, error)) (*game.Game, [2]time.Time, error) {
	g, err := build(where(ctx, vs.store))
	if err != nil {
		return nil, [2]time.Time{}, err
	}
	away, err := vs.awayAtStart(ctx, g, now)
	if err != nil {
		return nil, away, err
	}
	return g, away, nil
}

// placed returns the new game gg, made at now, at the place p says (its
// guild, channel, …), as the store is to keep it: its first board due for
// an edit when the weekend pause of its first turn begins, if it does
// (boardedit.go).
func placed(p storage.Game, gg *game.Game, now time.Time) *storage.Game {
	p.Game, p.BoardEdit = gg, gg.PauseChange(now)
	return &p
}

// defaults are what a new game in a guild of settings s takes for what
// its players did not ask (game.Defaults): s, then the bot's move time.
func defaults(s storage.GuildSettings, moveTime time.Duration) game.Defaults {
	return game.Defaults{ServerMoveTime: s.MoveTime, BotMoveTime: moveTime, Weekends: s.Weekends, Timeouts: s.Timeouts()}
}

// configured builds the game of cfg at now, for newGame.
func configured(cfg game.Config, now time.Time) func(challenge.Where) (*game.Game, error) {
	return func(w challenge.Where) (*game.Game, error) {
		for c, p := range cfg.Players {
			cfg.Zones[c], cfg.Quiet[c] = w(p)
		}
		return game.New(cfg, now)
	}
}

// tellAllAway tells the opponent of each player of g on vacation (away,
// from newGame) when they return; g is shown already.
func (vs *vacations) tellAllAway(ctx context.Context, g *storage.Game, away [2]time.Time) {
	for c, ends := range away {
		if !ends.IsZero() {
			vs.tellAway(ctx, g, engine.Color(c), ends)
		}
	}
}
