package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/bot/jobs"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/ai"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
)

// table is where the games are played: it changes a stored game in one
// commit, posts its new board and lets the computer make its moves. It is
// safe for concurrent use.
type table struct {
	store interface {
		GameStore
		FinishedStore
	}
	clock   Clock
	log     *slog.Logger
	metrics Metrics   // told of the moves and the endings
	links   RoleLinks // told of the rated games
	wake    wakeup
	out     *outbound
	langs   *locales
	views   *views
	courier *courier     // the boards of answer-only games
	notices *notices     // the one way out for what pings a player
	runner  *jobs.Runner // the computer's moves run on it
	mend    *mender      // tries again the boards Discord failed
	aiTime  time.Duration
	// searchers keeps the trees of hard's last few games, to search on
	// from at its next move in each.
	searchers ai.Searchers
	// beforeRetire, if set (by a test), runs when a new board is noted
	// and the old one not yet retired (see post).
	beforeRetire func()
}

// change is one change to a game asked for by a player (or by the clock):
// it runs on the stored game inside the store's write transaction, so it
// must be quick and touch nothing but g.
type change func(g *storage.Game) error

// asker is who asked for a change, as explain words a refusal of it: the
// player's user ID and the hole they asked for, if any.
type asker struct {
	user string
	cell string // the hole of a move, as typed or picked
}

// byBot asks for the changes nobody asked for: the scheduler's, the
// computer's moves, a game abandoned.
var byBot = asker{}

// update applies fn to the game of channel in one durable commit, for by;
// gameID, if not zero, is the game the player saw (a component names it),
// so a click on a game that has ended is refused with errGameGone. A
// refusal of the game's rules comes back as a *gameError that explain
// words with the game as it was, and the hole by asked for (if any). It
// returns the changed game and the board message the game had before the
// change.
//
// A change that moved the game and that the store failed is looked for in
// the store (committedAnyway): a write whose COMMIT was under way when its
// connection or its context ended may have committed, and a move stored
// must be shown, never answered as if nothing changed.
func (t *table) update(ctx context.Context, channel string, gameID uint64, by asker, fn change) (*storage.Game, string, error) {
	var seen *storage.Game
	var oldBoard string
	var ply int
	now := t.clock.Now()
	owed := now.Add(repairAfter)
	var applied *appliedChange // the change's result, if it ran to its end
	g, err := t.store.UpdateGame(ctx, channel, func(g *storage.Game) error {
		applied = nil
		if gameID != 0 && g.ID != gameID {
			return errGameGone
		}
		seen, oldBoard = g, g.BoardMessageID
		ply = g.Ply()
		if err := fn(g); err != nil {
			return &gameError{err: err, g: seen, user: by.user, cell: by.cell}
		}
		if g.Ply() != ply || g.Over() {
			// The change moves the game past its board, which the caller
			// retires: the game shows no board until the new one is
			// noted. The new board is owed in this same commit, so that
			// it is posted (repair) even if this process dies before it
			// posts it; the note of the board pays it.
			g.BoardMessageID = ""
			g.BoardDue = owed
			g.BoardEdit = g.PauseChange(now) // the new board's weekend pause, if it comes
			if g.Over() {
				// A finished game's final board is owed only when
				// Discord fails it (oweFinal): paying it would cost
				// every game a commit.
				g.BoardDue = time.Time{}
			}
		}
		if g.Ply() != ply {
			applied = &appliedChange{guild: g.GuildID, channel: g.ChannelID, id: g.ID, over: g.Over(), moves: g.Moves()}
		}
		return nil
	})
	if err != nil && applied != nil {
		if now, ok := t.committedAnyway(ctx, applied); ok {
			t.log.Warn("the store failed a move that committed all the same", "channel", channel, "game", applied.id, "ply", len(applied.moves), "err", RedactError(err))
			g, err = now, nil
		}
	}
	switch {
	case errors.Is(err, storage.ErrNotFound) && gameID != 0:
		return nil, "", errGameGone
	case errors.Is(err, storage.ErrNotFound):
		return nil, "", errNoGame
	case err != nil:
		return nil, "", err
	}
	t.wake.poke()
	if n := g.Ply() - ply; n > 0 {
		t.metrics.Moved(n)
	}
	if g.Over() { // it was not before: the store keeps no finished game as active
		t.metrics.GameEnded(g.Result().Ending)
		if g.Result().Rated() {
			users := storage.PlayerUsers(g.Players())
			t.links.Played(g.GuildID, users[:]...)
		}
	}
	return g, oldBoard, nil
}

// appliedChange is what a change that moved a game left it at.
type appliedChange struct {
	guild, channel string
	id             uint64
	over           bool
	moves          []game.Move
}

// committedAnyway returns the game as the store now has it if it holds
// the change applied (by its moves, their times included, so that no
// other change is taken for it), which the store failed: active, or
// finished if the change ended it. It first waits for the failed write's
// transaction, if the database still runs it (a COMMIT under way when the
// client gave up), by taking the game's row as a write does, again and
// again while the store is busy (the row stays locked past the lock
// timeout: the failed write waits behind another that holds it, or the
// server is slow to commit it), for up to storeWithin: a row read before
// the failed write ends would tell that a move it then stores was not.
func (t *table) committedAnyway(ctx context.Context, applied *appliedChange) (*storage.Game, bool) {
	ctx, cancel := context.WithTimeout(beyond(ctx), storeWithin)
	defer cancel()
	err := storage.ErrBusy
	for errors.Is(err, storage.ErrBusy) && ctx.Err() == nil {
		_, err = t.store.UpdateGame(ctx, applied.channel, func(*storage.Game) error { return errLookOnly })
		if errors.Is(err, errGameBusy) { // the game's gate is full: its turn comes after theirs
			select {
			case <-ctx.Done():
			case <-time.After(gateRetry):
			}
		}
	}
	if !errors.Is(err, errLookOnly) && !errors.Is(err, storage.ErrNotFound) {
		return nil, false
	}
	now, err := t.store.Game(ctx, applied.channel)
	switch {
	case err == nil && now.ID == applied.id:
	case (err == nil || errors.Is(err, storage.ErrNotFound)) && applied.over:
		f, err := t.store.FinishedGame(ctx, applied.guild, applied.id)
		if err != nil {
			return nil, false
		}
		now = &f.Game
	default:
		return nil, false
	}
	same := slices.EqualFunc(now.Moves(), applied.moves, func(a, b game.Move) bool {
		return a.Cell == b.Cell && a.At.Equal(b.At) && a.Planned == b.Planned
	})
	return now, same
}

// errLookOnly ends, changing nothing, the transaction that takes a game's
// row only to wait for the one that holds it.
var errLookOnly = errors.New("read only")

// clickedPast reports whether the game g moved past its board messageID
// by a click on it, as the store now has the game, active or finished.
func (t *table) clickedPast(ctx context.Context, g *storage.Game, messageID string) bool {
	now, err := t.store.Game(ctx, g.ChannelID)
	if err != nil || now.ID != g.ID {
		f, ferr := t.store.FinishedGame(ctx, g.GuildID, g.ID)
		if ferr != nil {
			return false
		}
		now = &f.Game
	}
	return slices.Contains(now.ClickedBoards, messageID)
}

// seated returns the change fn made by the player userID, as the colour
// they play; a user who does not play in the game is refused with
// game.ErrNotAPlayer.
func seated(userID string, fn func(g *storage.Game, c engine.Color) error) change {
	return func(g *storage.Game) error {
		c, err := g.Seat(userID)
		if err != nil {
			return err
		}
		return fn(g, c)
	}
}

// channelGame returns the game of the interaction's channel.
func (t *table) channelGame(c *interaction) (*storage.Game, error) {
	g, err := t.store.Game(c.ctx, c.i.ChannelID)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, errNoGame
	}
	return g, err
}

// boardLink is a link to the message that shows the game's board, or
// says in lang how to see it.
func boardLink(lang i18n.Lang, g *storage.Game) string {
	if g.BoardMessageID == "" {
		return lang.T("board.link_none")
	}
	return placeLink(g, g.BoardMessageID)
}

// show posts the board of g after a change as a new message of the bot in
// g's channel, so that it notifies the player it asks to move (Discord
// notifies nobody of an edit) and reaches the channel whatever happened to
// the interaction that made the change. It retires oldBoard (unless it is
// the message c's component was on, which c updates; c may be nil), notes
// the new board with the store and, when it is the computer's turn, queues
// its move.
//
// A board is a notice (notice.go): it pings whom it hands the turn (or
// both players at the end) but those in their quiet hours in a game
// played over days. Where the bot cannot post and no interaction asks
// (the scheduler's timeouts, a board owed), each player it pings gets it
// by DM, drawn in their own language.
func (t *table) show(ctx context.Context, c *interaction, g *storage.Game, oldBoard string) error {
	if answerOnly(g) && c == nil {
		return t.tellByDM(ctx, g, oldBoard)
	}
	m, err := t.views.boardMessage(ctx, t.langs.langOf(ctx, c, g.GuildID), g)
	if err != nil {
		return err
	}
	return t.post(ctx, c, g, oldBoard, t.notices.hush(ctx, g.Game, m))
}

// tellByDM tells the players of the answer-only game g its new board by
// DM, without its components (their custom IDs name g's channel and work
// only there), each in their language, silent in their quiet hours; the
// board in the channel is the last one a player's click made (Refresh
// shows the game as it is). A player who cannot receive a DM is logged;
// when nobody can, the players see what happened at their next click on
// g's boards (refresh).
func (t *table) tellByDM(ctx context.Context, g *storage.Game, oldBoard string) error {
	var told []string // as boardMessage pings: both players at the end, else the one to move
	for c, p := range g.Players() {
		if !p.IsAI() && (g.Over() || engine.Color(c) == g.ToMove()) {
			told = append(told, p.UserID)
		}
	}
	for _, id := range told {
		lm, err := t.views.boardMessage(ctx, t.langs.userLang(ctx, id), g)
		if err != nil {
			return err
		}
		lm.components, lm.mentions, lm.silent = nil, nil, t.notices.hushed(ctx, g.Game, id)
		if err := t.out.dmMessage(ctx, id, lm); err != nil {
			t.log.Info("cannot tell a player by DM of a game outside the servers", "user", id, "channel", g.ChannelID, "game", g.ID, "err", err)
		}
	}
	if oldBoard != "" {
		t.courier.retire(ctx, g.ChannelID, oldBoard)
	}
	return nil
}

// shown shows g after a change that committed, as show does, with
// answered, the error of the answer to the interaction that asked for the
// change. A board that failed is a storedError, which tells the user that
// the change is stored. A board shown whose answer failed, or that the
// store failed to note (errUnnoted: the scheduler notes it), is only
// logged: the board says what happened, and the interaction's own
// messages fail (Discord has no first answer to follow up, or is not
// answering).
func (t *table) shown(ctx context.Context, c *interaction, g *storage.Game, oldBoard string, answered error) error {
	err := t.show(ctx, c, g, oldBoard)
	if errors.Is(err, errUnnoted) {
		t.log.Warn("a change is stored and its board shown, but the store failed to note the board: the scheduler notes it", "channel", g.ChannelID, "game", g.ID, "ply", g.Ply(), "err", RedactError(err))
		err = nil
	}
	switch {
	case err != nil:
		return &storedError{err: errors.Join(err, answered)}
	case answered != nil:
		t.log.Warn("a change is stored and its board shown, but its answer failed", "name", interactionName(c.i), "channel", g.ChannelID, "err", RedactError(answered))
	}
	return nil
}

// showAgain posts the current board of g again at the bottom of its
// channel, for someone who asked to see it: it pings nobody. A board
// shown that the store fails to note (the game's row locked) is only
// logged: the asker has the board, and nothing is owed.
func (t *table) showAgain(c *interaction, g *storage.Game) error {
	m, err := t.views.boardMessage(c.ctx, t.langs.publicLang(c), g)
	if err != nil {
		return err
	}
	m.mentions = nil
	err = t.post(c.ctx, c, g, g.BoardMessageID, m)
	if errors.Is(err, errUnnoted) {
		// The board is shown, which is all that was asked: a note the
		// store could not take (the game's row locked, say) is not the
		// asker's failure, and nothing is owed.
		t.log.Warn("a board shown again could not be noted", "channel", g.ChannelID, "game", g.ID, "ply", g.Ply(), "err", RedactError(err))
		return nil
	}
	return err
}

// post posts m, the board of g, as show says. A board of a game that goes
// on that Discord fails to post is owed: the scheduler posts it later.
func (t *table) post(ctx context.Context, c *interaction, g *storage.Game, oldBoard string, m message) error {
	var msg *discordgo.Message
	var err error
	if answerOnly(g) {
		msg, err = t.courier.board(c, m)
	} else {
		msg, err = t.sendBoard(ctx, g, m)
	}
	if err != nil {
		err = fmt.Errorf("post the board: %w", err)
		if g.Over() {
			if oerr := t.oweFinal(ctx, g); oerr != nil {
				return errors.Join(err, oerr)
			}
			return fmt.Errorf("%w: %w", errBoardOwed, err)
		}
		if err := t.abandonIfGone(ctx, g, err); err == nil {
			return nil
		}
		if oerr := t.owe(ctx, g); oerr != nil {
			return errors.Join(err, oerr)
		}
		if _, fault := discordFault(err); fault {
			t.mendBoard(g)
		}
		return fmt.Errorf("%w: %w", errBoardOwed, err)
	}
	// The new board is noted before the old one is retired: a process
	// that dies between the two leaves the game the new board, with its
	// menus (the old one keeps its menus too, as a board left behind),
	// never only a board without them.
	var noted error
	if !g.Over() {
		noted = t.note(ctx, g, msg.ID)
	}
	if t.beforeRetire != nil {
		t.beforeRetire()
	}
	switch {
	case answerOnly(g) && oldBoard != "" && oldBoard != msg.ID:
		t.courier.retire(ctx, g.ChannelID, oldBoard) // the click answered with a new message: its board is old
	case answerOnly(g):
	case oldBoard != "" && oldBoard != msg.ID && (c == nil || c.i.Message == nil || c.i.Message.ID != oldBoard):
		t.out.retire(ctx, g.ChannelID, oldBoard)
	}
	if g.Over() {
		return nil
	}
	if err := noted; err != nil {
		if errors.Is(err, storage.ErrNotFound) {
			// The game moved on before this board was noted, so the
			// change that did it could not retire it: do it here, unless
			// that change was a click on this board (perhaps served by
			// another process), whose answer retired it.
			switch {
			case answerOnly(g):
				t.courier.retire(ctx, g.ChannelID, msg.ID)
			case !t.clickedPast(ctx, g, msg.ID):
				t.out.retire(ctx, g.ChannelID, msg.ID)
			}
			return nil
		}
		return fmt.Errorf("%w: %w", errUnnoted, err)
	}
	if g.Player(g.ToMove()).IsAI() {
		t.queueAI(aiJob{channel: g.ChannelID, gameID: g.ID, ply: g.Ply()})
	}
	return nil
}

// errUnnoted: a board is posted, but the store failed to note it; the
// board stays owed (the change that moved the game owed it), and the
// scheduler's repair finds it in the channel (findBoard) and notes it,
// posting no second board.
var errUnnoted = errors.New("the board is shown but not noted")

// note notes msgID as the board of g at its ply, trying once more with a
// time of its own if the store fails (a row locked past the lock timeout,
// a connection ended, the interaction's storage deadline past).
func (t *table) note(ctx context.Context, g *storage.Game, msgID string) error {
	err := t.store.NoteBoard(ctx, g.ChannelID, g.ID, g.Ply(), msgID)
	if err == nil || errors.Is(err, storage.ErrNotFound) {
		return err
	}
	ctx, cancel := context.WithTimeout(beyond(ctx), storeWithin)
	defer cancel()
	return t.store.NoteBoard(ctx, g.ChannelID, g.ID, g.Ply(), msgID)
}

// boardRetries are the waits before each new try to post a board that
// Discord failed with an answer 5xx: at once (a lone fault), then backing
// off. A post that timed out is not tried again: Discord may have posted
// it, and the scheduler's repair comes later.
var boardRetries = []time.Duration{0, time.Second, 3 * time.Second}

// sendBoard sends m, the board of g, in g's channel as outbound.send
// does, trying again after the waits of boardRetries while Discord answers
// 5xx and ctx lasts, unless ctx is a try of the mender's (oneTry), which
// backs off itself. Before each new try, and after a post that got no
// answer, it looks for the board in the channel (findBoard): a 5xx may hide
// a post Discord made (a proxy's 502), as may a broken connection, and a
// board is never posted twice, nor said to be missing when it is shown.
func (t *table) sendBoard(ctx context.Context, g *storage.Game, m message) (*discordgo.Message, error) {
	msg, err := t.out.send(ctx, g.ChannelID, m)
	retries := boardRetries
	if ctx.Value(oneTry{}) != nil {
		retries = nil
	}
	for _, d := range retries {
		if status, fault := discordFault(err); !fault || status == "timeout" {
			break
		}
		select {
		case <-ctx.Done():
			return nil, err
		case <-t.clock.After(d):
		}
		if posted, ferr := t.out.findBoard(ctx, g.ChannelID, g.ID, g.Ply(), g.Over()); ferr == nil && posted != "" {
			return &discordgo.Message{ID: posted, ChannelID: g.ChannelID}, nil
		}
		msg, err = t.out.send(ctx, g.ChannelID, m)
	}
	var rest *discordgo.RESTError
	if err != nil && !errors.As(err, &rest) && ctx.Err() == nil {
		// No answer came (the connection broke, the client gave up):
		// Discord may have posted it.
		if posted, ferr := t.out.findBoard(ctx, g.ChannelID, g.ID, g.Ply(), g.Over()); ferr == nil && posted != "" {
			return &discordgo.Message{ID: posted, ChannelID: g.ChannelID}, nil
		}
	}
	return msg, err
}

// repairAfter is how long after Discord failed to post a board the
// scheduler posts it (see owe), if this process has not (mendBoard): the
// debt's durable bound, for a process that dies.
const repairAfter = time.Minute

// storeWithin bounds owe's store call, which outlives the interaction
// whose board failed: its context may be done by then, and its storage
// deadlines past (a post that hung until the client gave up, 20 s, ends
// after storeWork).
const storeWithin = 5 * time.Second

var (
	// errMovedOn: the game moved past the board owed, so nothing is owed.
	errMovedOn = errors.New("the game moved on")
	// errBoardOwed: a board Discord failed is owed, and the scheduler
	// posts it (see owe).
	errBoardOwed = errors.New("the board is owed")
)

// owe records that the board of g at its ply was not posted, so that the
// game is due to the scheduler repairAfter from now (storage.Game.BoardDue),
// which posts it (repair): the change that made the ply owed it already,
// from its own time; owe counts the time from the failure, and owes it
// again after a repair that failed. It costs a commit, only when a post
// failed.
func (t *table) owe(ctx context.Context, g *storage.Game) error {
	ctx, cancel := context.WithTimeout(beyond(ctx), storeWithin)
	defer cancel()
	due := t.clock.Now().Add(repairAfter)
	_, err := t.store.UpdateGame(ctx, g.ChannelID, func(now *storage.Game) error {
		if now.ID != g.ID || now.Ply() != g.Ply() || now.BoardMessageID != "" {
			return errMovedOn
		}
		now.BoardDue = due
		return nil
	})
	if errors.Is(err, errMovedOn) || errors.Is(err, storage.ErrNotFound) {
		return nil
	} else if err != nil {
		return fmt.Errorf("owe the board: %w", err)
	}
	t.log.Warn("board owed: the scheduler posts it later", "channel", g.ChannelID, "game", g.ID, "ply", g.Ply(), "due", due)
	t.wake.poke()
	return nil
}

// oweFinal records that the final board of g, a game that just ended, was
// not posted, so that the finished game is due to the scheduler at
// repairAfter (storage.WakeFinal), which posts it (repairFinal). It costs
// a commit, only when a final board failed.
func (t *table) oweFinal(ctx context.Context, g *storage.Game) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeWithin)
	defer cancel()
	due := t.clock.Now().Add(repairAfter)
	if err := t.store.SetFinalBoard(ctx, g.GuildID, g.ID, "", due); err != nil {
		return fmt.Errorf("owe the final board: %w", err)
	}
	t.log.Warn("final board owed: the scheduler posts it later", "channel", g.ChannelID, "game", g.ID, "due", due)
	t.wake.poke()
	return nil
}

// repairFinal posts the final board owed of the finished game that name
// (storage.FinishedWake) names, due at now, unless Discord posted it after
// all (a post that timed out), and pays the debt in one commit that also
// stores its message. The board tells the players the result and pings
// them, as the final board does. A post that fails again owes it again.
func (t *table) repairFinal(ctx context.Context, name string, now time.Time) error {
	guild, id, err := storage.ParseFinishedWake(name)
	if err != nil {
		return err
	}
	f, err := t.store.FinishedGame(ctx, guild, id)
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	} else if err != nil {
		return err
	}
	if f.BoardDue.IsZero() || f.BoardDue.After(now) {
		return nil // posted meanwhile
	}
	g := &f.Game
	if answerOnly(g) {
		if err := t.show(ctx, nil, g, ""); err != nil { // by DM
			return err
		}
		return t.store.SetFinalBoard(ctx, guild, id, "", time.Time{})
	}
	posted, err := t.out.findBoard(ctx, g.ChannelID, g.ID, g.Ply(), true)
	if err != nil {
		return err
	}
	if posted == "" {
		m, err := t.views.boardMessage(ctx, t.langs.guildLang(ctx, g.GuildID), g)
		if err != nil {
			return err
		}
		msg, err := t.sendBoard(ctx, g, m)
		if err != nil {
			if err := t.abandonIfGone(ctx, g, err); err == nil {
				return t.store.SetFinalBoard(ctx, guild, id, "", time.Time{}) // no channel to post in
			}
			if oerr := t.oweFinal(ctx, g); oerr != nil {
				return errors.Join(err, oerr)
			}
			return fmt.Errorf("%w: post the final board: %w", errBoardOwed, err)
		}
		posted = msg.ID
	}
	return t.store.SetFinalBoard(ctx, guild, id, posted, time.Time{})
}

// repair posts the board owed of g (see owe) as a new message that pings
// the player to move, unless Discord posted it after all (a post that
// timed out), and clears the debt in one commit that also stores the
// board's note. A post that fails again owes the board again.
func (t *table) repair(ctx context.Context, g *storage.Game) error {
	if g.BoardMessageID == "" {
		posted, err := "", error(nil)
		if !answerOnly(g) { // else the bot reads nothing of the channel, and show tells by DM
			posted, err = t.out.findBoard(ctx, g.ChannelID, g.ID, g.Ply(), false)
		}
		switch {
		case err != nil:
			return err
		case posted != "":
			if err = t.store.NoteBoard(ctx, g.ChannelID, g.ID, g.Ply(), posted); err == nil && g.Player(g.ToMove()).IsAI() {
				t.queueAI(aiJob{channel: g.ChannelID, gameID: g.ID, ply: g.Ply()})
			}
		default:
			err = t.show(ctx, nil, g, "")
		}
		if err != nil {
			return err
		}
	}
	_, err := t.store.UpdateGame(ctx, g.ChannelID, func(now *storage.Game) error {
		if now.ID != g.ID || now.Ply() != g.Ply() {
			return errMovedOn
		}
		now.BoardDue = time.Time{}
		return nil
	})
	if errors.Is(err, errMovedOn) || errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	return err
}

// abandonIfGone ends the game g as abandoned, unrated, when err says that
// its channel is gone (deleted under a running game), and tells both
// players by DM; it returns nil then. Any other err is returned as it is.
func (t *table) abandonIfGone(ctx context.Context, g *storage.Game, err error) error {
	if restCode(err) != discordgo.ErrCodeUnknownChannel {
		return err
	}
	now := t.clock.Now()
	_, _, uerr := t.update(ctx, g.ChannelID, g.ID, byBot, func(g *storage.Game) error { return g.Abandon(now) })
	if errors.Is(uerr, errGameGone) || errors.Is(uerr, engine.ErrGameOver) {
		return nil // ended meanwhile
	} else if uerr != nil {
		return uerr
	}
	t.log.Info("game abandoned: its channel is gone", "channel", g.ChannelID, "game", g.ID)
	players := g.Players()
	for c, p := range players {
		if p.IsAI() {
			continue
		}
		opponent := players[engine.Color(c).Other()]
		t.notices.dm(ctx, g.Game, p.UserID, func(lang i18n.Lang) message {
			return message{content: lang.T("remind.abandoned", "Opponent", escape(playerName(lang, opponent)), "Game", g.ID)}
		})
	}
	return nil
}
