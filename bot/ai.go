package bot

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/kulami/kulami/bot/jobs"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/ai"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
)

// aiName is how the computer opponent of a level is named in games.
func aiName(l ai.Level) string { return fmt.Sprintf("Kulami AI (%s)", l) }

// computer handles the games against the computer: /kulami play and
// /kulami hint (its moves are the table's). It is safe for concurrent use.
type computer struct {
	store interface {
		GameStore
		SettingsStore
	}
	clock    Clock
	moveTime time.Duration // when the guild chooses none
	wake     wakeup
	langs    *locales
	table    *table
	chans    *channels
	runner   *jobs.Runner    // hints search on the computer's worker
	baseCtx  context.Context // the bot's: cancelled by Close
	// vacations starts a game of a person on vacation with their clock
	// stopped.
	vacations *vacations
}

// playCommand handles /kulami play: a game against the computer.
func (cp *computer) playCommand(c *interaction, o options) error {
	return cp.playAI(c, o, o.str("level"))
}

// playAI starts a game against the computer at the named level (medium if
// empty) in the interaction's channel; who begins is drawn by lot unless
// the options say.
func (cp *computer) playAI(c *interaction, o options, levelName string) error {
	level := ai.Medium
	if levelName != "" {
		l, err := ai.ParseLevel(levelName)
		if err != nil {
			return refuse("play.pick_level")
		}
		level = l
	}
	if err := cp.chans.checkPermissions(c); err != nil {
		return err
	}
	layout, rules, err := gameOptions(o)
	if err != nil {
		return err
	}
	settings, err := cp.store.GuildSettings(c.ctx, c.i.GuildID)
	if err != nil {
		return err
	}
	human := game.Player{UserID: c.user().ID, Name: c.displayName()}
	computer := game.Player{UserID: c.i.AppID, Name: aiName(level), AI: level.String()}
	players := [2]game.Player{human, computer}
	switch o.str("first") {
	case "them":
		players = [2]game.Player{computer, human}
	case "me":
	default:
		if rand.IntN(2) == 0 {
			players = [2]game.Player{computer, human}
		}
	}
	set, err := defaults(settings, cp.moveTime).Settings(game.Asked{}, true)
	if err != nil {
		return err
	}
	cfg := game.Config{Layout: layout, Rules: rules, First: engine.Red, Players: players}
	set.Apply(&cfg)
	// The computer is never away, nor told that the person is.
	gg, _, err := cp.vacations.newGame(c.ctx, cp.clock.Now(), configured(cfg, cp.clock.Now()))
	if err != nil {
		return err
	}
	g := placed(storage.Game{GuildID: c.i.GuildID, ChannelID: c.i.ChannelID}, gg, cp.clock.Now())
	if err := cp.store.CreateGame(c.ctx, g); err != nil {
		if errors.Is(err, storage.ErrChannelBusy) {
			return cp.chans.busy(c)
		}
		return err
	}
	cp.wake.poke()
	lang := cp.langs.publicLang(c)
	answered := c.reply(message{content: lang.T("play.started", "Player", escape(playerName(lang, human)), "Computer", escape(playerName(lang, computer)),
		"First", colorMark[engine.Red]+" "+escape(playerName(lang, players[engine.Red])))})
	return cp.table.shown(c.ctx, c, g, "", answered)
}

// aiPlayer is the search of a computer player in the game gameID, and
// its budget a move. Hard searches on from its tree of the game's last
// move (table.searchers); the other levels search a fixed number of
// playouts afresh, so that their strength stays as set.
func (t *table) aiPlayer(gameID uint64, p game.Player) (ai.Player, time.Duration, error) {
	level, err := ai.ParseLevel(p.AI)
	if err != nil {
		return nil, 0, err
	}
	cfg := level.Config()
	if level != ai.Hard {
		return cfg, cfg.Time, nil
	}
	if t.aiTime > 0 {
		cfg.Time = t.aiTime
	}
	return t.searchers.For(gameID, cfg), cfg.Time, nil
}

// aiJob is the computer's move in the game gameID of channel at ply.
type aiJob struct {
	channel string
	gameID  uint64
	ply     int
}

// queueAI queues the computer's move with the bot's runner: it runs
// before the reviews waiting, after the searches queued before it (one
// search at a time: each uses every core). A job already queued is not
// queued twice.
func (t *table) queueAI(j aiJob) {
	_, err := t.runner.Submit(jobs.Job{
		Class: jobMove, Key: fmt.Sprintf("move:%s:%d:%d", j.channel, j.gameID, j.ply),
		// The job's context, not the interaction's that queued it: the
		// move outlives the interaction by design.
		Run: func(ctx context.Context) error { return t.aiMove(ctx, j) },
	})
	switch {
	case errors.Is(err, jobs.ErrDuplicate):
	case errors.Is(err, jobs.ErrClosed): // shutting down: the scheduler queues the move again at start
	case err != nil:
		t.log.Error("cannot queue the computer's move", "channel", j.channel, "game", j.gameID, "err", err)
	}
}

// aiMove lets the computer play its move of job j, if the game still
// waits for it, and posts the new board as a message of the bot. It runs
// on the runner's search worker.
func (t *table) aiMove(ctx context.Context, j aiJob) error {
	g, err := t.store.Game(ctx, j.channel)
	if errors.Is(err, storage.ErrNotFound) {
		return nil // the game ended meanwhile
	} else if err != nil {
		return err
	}
	computer := g.ToMove()
	if g.ID != j.gameID || g.Ply() != j.ply || !g.Player(computer).IsAI() {
		return nil // someone else moved it on
	}
	player, budget, err := t.aiPlayer(g.ID, g.Player(computer))
	if err != nil {
		return err
	}
	p := g.Position()
	search, cancel := context.WithTimeout(ctx, budget)
	mv, err := player.Move(search, p, g.Rules())
	cancel()
	if err != nil {
		return fmt.Errorf("computer move: %w", err)
	}
	now := t.clock.Now()
	g, old, err := t.update(ctx, j.channel, j.gameID, byBot, func(g *storage.Game) error {
		return g.Play(computer, j.ply, mv.Cell, now)
	})
	if errors.Is(err, errGameGone) || errors.Is(err, game.ErrStale) {
		return nil // the game moved on during the search
	} else if err != nil {
		return err
	}
	return t.show(ctx, nil, g, old)
}

// hintCommand shows the player to move the computer's suggestion, if the
// server allows hints.
func (cp *computer) hintCommand(c *interaction, _ options) error {
	settings, err := cp.store.GuildSettings(c.ctx, c.i.GuildID)
	if err != nil {
		return err
	}
	if !settings.Hints {
		return refuse("play.hints_off")
	}
	g, err := cp.table.channelGame(c)
	if err != nil {
		return err
	}
	by, err := g.Seat(c.user().ID)
	if err == nil {
		err = g.CheckTurn(by)
	}
	if err != nil {
		return &gameError{err: err, g: g, user: c.user().ID}
	}
	p := g.Position()
	if err := c.deferReply(true); err != nil {
		return err
	}
	cfg := ai.Medium.Config()
	ctx, cancel := context.WithTimeout(cp.baseCtx, cfg.Time)
	defer cancel()
	var mv ai.Move
	started := false
	err = cp.runner.Do(ctx, jobs.Job{Class: jobMove, Run: func(ctx context.Context) (err error) {
		started = true
		mv, err = cfg.Move(ctx, p, g.Rules())
		return err
	}})
	if err != nil && !started {
		return refuse("play.busy") // the computer was busy with other games all the time
	} else if err != nil {
		return err
	}
	lang := c.lang()
	text := lang.T("play.hint", "Hole", mv.Cell)
	if mv.WinChance != ai.NoEstimate {
		text += " " + lang.T("play.hint_chance", "Chance", lang.Percent(mv.WinChance))
	}
	return c.reply(message{content: text, ephemeral: true})
}
