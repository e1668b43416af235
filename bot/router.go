package bot

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/storage"
)

// options are the options of a subcommand, by name. Its accessors read
// the values as Discord sends them and treat a value of the wrong type as
// missing (discordgo's own accessors panic on those).
type options map[string]*discordgo.ApplicationCommandInteractionDataOption

// str returns a string option, or "".
func (o options) str(name string) string {
	if v, ok := o[name]; ok {
		if s, ok := v.Value.(string); ok {
			return s
		}
	}
	return ""
}

// int returns an integer option, or def.
func (o options) int(name string, def int) int {
	if v, ok := o[name]; ok {
		switch n := v.Value.(type) {
		case float64: // as JSON decodes it
			if n == math.Trunc(n) && math.Abs(n) <= 1<<53 {
				return int(n)
			}
		case int64:
			return int(n)
		}
	}
	return def
}

// bool returns a boolean option, or false.
func (o options) bool(name string) bool {
	if v, ok := o[name]; ok {
		b, _ := v.Value.(bool)
		return b
	}
	return false
}

// userID returns the ID of a user option, or "".
func (o options) userID(name string) string { return o.str(name) }

type commandHandler func(c *interaction, o options) error

type componentHandler func(c *interaction, id customID) error

// challengeHandler acts on an open challenge, whether a command (the
// challenge of its channel) or a button (the challenge it names) asked.
type challengeHandler func(c *interaction, ch *storage.Challenge) error

// gameHandler acts on a running game, whether a command (the game of its
// channel) or a button (the game it names) asked.
type gameHandler func(c *interaction, g *storage.Game) error

// errNoChallenge and errChallengeGone are the refusals of a challenge
// handler whose challenge is not there.
var (
	errNoChallenge   = refuse("challenge.none")
	errChallengeGone = refuse("challenge.gone")
)

// challengeCommand runs h on the open challenge of the command's channel.
func challengeCommand(store ChallengeStore, h challengeHandler) commandHandler {
	return func(c *interaction, _ options) error {
		ch, err := store.Challenge(c.ctx, c.i.ChannelID)
		if errors.Is(err, storage.ErrNotFound) {
			return errNoChallenge
		} else if err != nil {
			return err
		}
		return h(c, ch)
	}
}

// challengeButton runs h on the challenge a button names, if it is still
// open.
func challengeButton(store ChallengeStore, h challengeHandler) componentHandler {
	return func(c *interaction, id customID) error {
		ch, err := store.Challenge(c.ctx, id.channel)
		if errors.Is(err, storage.ErrNotFound) || (err == nil && ch.ID != id.id) {
			return errChallengeGone
		} else if err != nil {
			return err
		}
		return h(c, ch)
	}
}

// gameCommand runs h on the game of the command's channel.
func gameCommand(t *table, h gameHandler) commandHandler {
	return func(c *interaction, _ options) error {
		g, err := t.channelGame(c)
		if err != nil {
			return err
		}
		return h(c, g)
	}
}

// gameButton runs h on the game a button names, if it is still going on.
func gameButton(store GameStore, h gameHandler) componentHandler {
	return func(c *interaction, id customID) error {
		g, err := store.Game(c.ctx, id.channel)
		if errors.Is(err, storage.ErrNotFound) || (err == nil && g.ID != id.id) {
			return errGameGone
		} else if err != nil {
			return err
		}
		return h(c, g)
	}
}

// handlers are the bot's handlers, grouped by feature; the router's
// tables map each subcommand and component action to one of their
// methods.
type handlers struct {
	store      interactionStore // the challenge, game or finished game a handler acts on
	table      *table
	challenges *challenges
	play       *playing
	computer   *computer
	records    *records
	reviews    *reviews
	prefs      *preferences
	vacations  *vacations
	overtime   *overtime
	planner    *planner
	tourney    *tournaments
	puzzles    *puzzles
}

// commandHandlers returns the handler of each subcommand of /kulami.
func commandHandlers(h handlers) map[string]commandHandler {
	return map[string]commandHandler{
		"challenge":   h.challenges.challenge,
		"accept":      challengeCommand(h.store, h.challenges.accept),
		"decline":     challengeCommand(h.store, h.challenges.decline),
		"move":        h.play.moveCommand,
		"board":       h.play.boardCommand,
		"resign":      gameCommand(h.table, h.play.askResign),
		"abort":       h.play.abortCommand,
		"draw":        h.play.drawCommand,
		"rules":       func(c *interaction, _ options) error { return c.reply(rulesMessage(c.lang(), 0)) },
		"help":        func(c *interaction, _ options) error { return c.reply(helpMessage(c.lang())) },
		"leaderboard": h.records.leaderboardCommand,
		"stats":       h.records.statsCommand,
		"history":     h.records.historyCommand,
		"export":      h.records.exportCommand,
		"notify":      h.prefs.notifyCommand,
		"settings":    h.prefs.settingsCommand,
		"play":        h.computer.playCommand,
		"hint":        h.computer.hintCommand,
		"games":       h.records.gamesCommand,
		"review":      h.reviews.reviewCommand,
		"vacation":    h.vacations.vacationCommand,
		"give_time":   gameCommand(h.table, h.overtime.giveTime),
		"claim":       gameCommand(h.table, h.overtime.claimCommand),
		"plan":        gameCommand(h.table, h.planner.open),
		"tournament":  h.tourney.command,
		"puzzle":      h.puzzles.command,
	}
}

// inDMs are the subcommands that also work outside a server that added the bot: where a game is
// answer-only (see answerOnly), those of a game between two people, and what reads the everywhere
// ladder and its games. The computer's games, reviews, tournaments and seasons need a server.
var inDMs = map[string]bool{"rules": true, "help": true, "challenge": true, "accept": true, "decline": true,
	"move": true, "board": true, "resign": true, "abort": true, "draw": true, "give_time": true, "claim": true,
	"plan": true, "leaderboard": true, "games": true, "settings": true, "stats": true, "history": true, "export": true,
	"notify": true, "puzzle": true}

// anywhere are the component actions that also work where the bot is not a member: those of the
// messages that inDMs' subcommands answer with (not a daily puzzle's Solve button: its post is a
// server's).
var anywhere = map[string]bool{actRules: true, actMove: true, actResign: true, actResignYes: true, actResignNo: true,
	actAccept: true, actDecline: true, actCancel: true, actDrawAccept: true, actDrawReject: true, actRematch: true,
	actReplayGIF: true, actGiveTime: true, actClaim: true, actWait: true, actClaimDM: true, actWaitDM: true, actPlan: true, actPlanPick: true,
	actPlanClear: true, actLeaders: true, actLeadersNext: true, actLeadersPrev: true, actRefresh: true,
	actPuzzleMove: true, actPuzzleNext: true, actPuzzleTopN: true, actPuzzleTopP: true}

// componentHandlers returns the handler of each component action.
func componentHandlers(h handlers) map[string]componentHandler {
	return map[string]componentHandler{
		actMove:        h.play.moveSelect,
		actResign:      gameButton(h.store, h.play.askResign),
		actResignYes:   h.play.resignConfirm,
		actResignNo:    h.play.resignCancel,
		actAccept:      challengeButton(h.store, h.challenges.accept),
		actDecline:     challengeButton(h.store, h.challenges.decline),
		actCancel:      challengeButton(h.store, h.challenges.withdraw),
		actRules:       func(c *interaction, id customID) error { return c.update(rulesMessage(c.lang(), id.n)) },
		actLeaders:     h.records.leaderboardPage,
		actLeadersNext: h.records.leaderboardStep,
		actLeadersPrev: h.records.leaderboardStep,
		actDrawAccept:  drawAnswer(h.play, true),
		actDrawReject:  drawAnswer(h.play, false),
		actRematch:     finishedButton(h.store, h.challenges.rematch),
		actReviewStep:  h.reviews.reviewStep,
		actReplayGIF:   finishedButton(h.store, h.reviews.replayGIF),
		actGiveTime:    gameButton(h.store, h.overtime.giveTime),
		actClaim:       gameButton(h.store, h.overtime.claimButton),
		actWait:        gameButton(h.store, h.overtime.keepWaiting),
		actClaimDM:     gameButton(h.store, h.overtime.claimButton),
		actWaitDM:      gameButton(h.store, h.overtime.keepWaiting),
		actPlan:        gameButton(h.store, h.planner.open),
		actPuzzleMove:  h.puzzles.move,
		actPuzzleNext:  h.puzzles.nextButton,
		actPuzzleSolve: h.puzzles.solveButton,
		actPuzzleTopN:  h.puzzles.topPage,
		actPuzzleTopP:  h.puzzles.topPage,
		actPlanPick: func(c *interaction, id customID) error {
			return gameButton(h.store, func(c *interaction, g *storage.Game) error { return h.planner.pick(c, g, id) })(c, id)
		},
		actPlanClear: gameButton(h.store, h.planner.clear),
		actTJoin:     h.tourney.button(h.tourney.join),
		actTLeave:    h.tourney.button(h.tourney.leave),
		actTWithdraw: h.tourney.button(h.tourney.withdraw),
		actTStay:     h.tourney.button(h.tourney.stay),
		actRefresh:   h.table.refresh,
	}
}

// elsewhere is the set of actions whose component is refused if its custom
// ID names a channel other than the interaction's own (for actLeaders, a
// guild), with errElsewhere (errOtherServer): a message's components are
// clicked where it was posted, so such an ID is stale or forged, and acting
// on the place it names would change another channel's game or show another
// guild's leaderboard. The refusal says so, not that the game or challenge
// it names is gone: it may well go on in its own channel. The actions
// not listed name no place to check: the rules, a review's steps,
// which may be posted in another channel than their game's, and the
// leaderboard's pages from a mark (which the ID holds in place of a
// channel); they read the interaction's own guild; and the buttons of a
// claim's DM (actClaimDM, actWaitDM), clicked in the bot's DM with the
// player who may claim, which name the game's own place (only that
// player may claim or wait: overtime.claimant, game.Game.Claim).
var elsewhere = map[string]error{
	actMove:       errElsewhere,
	actResign:     errElsewhere,
	actResignYes:  errElsewhere,
	actResignNo:   errElsewhere,
	actDrawAccept: errElsewhere,
	actDrawReject: errElsewhere,
	actAccept:     errElsewhere,
	actDecline:    errElsewhere,
	actCancel:     errElsewhere,
	actRematch:    errElsewhere,
	actReplayGIF:  errElsewhere,
	actGiveTime:   errElsewhere,
	actClaim:      errElsewhere,
	actWait:       errElsewhere,
	actPlan:       errElsewhere,
	actPlanPick:   errElsewhere,
	actPlanClear:  errElsewhere,
	actLeaders:    errOtherServer,
	actTJoin:      errElsewhere,
	actTLeave:     errElsewhere,
	actTWithdraw:  errElsewhere,
	actTStay:      errElsewhere,
	actRefresh:    errElsewhere,
}

// errElsewhere and errOtherServer are the refusals of a component whose
// custom ID names another channel, or another server's leaderboard.
var (
	errElsewhere   = refuse("error.elsewhere")
	errOtherServer = refuse("error.elsewhere_server")
)

// ownPlace returns elsewhere's refusal if id names a channel (or guild)
// other than c's own.
func ownPlace(c *interaction, id customID) error {
	refusal, ok := elsewhere[id.action]
	own := c.i.ChannelID
	if id.action == actLeaders {
		own = boardOf(id.id).guild(c)
	}
	if ok && id.channel != own {
		return refusal
	}
	return nil
}

// handle answers one interaction, from either transport, with the
// recipients of its DM or group DM (recipientsOf). Every interaction
// gets an answer: a handler's error is translated for the user by fail.
// The interaction's context (c.ctx, which its handler passes to the store
// and to Discord) is ctx's, with the deadlines of its storage calls (see
// storeDeadlines), cancelled when ctx is (the bot's, by Close) or
// when handle returns; work that outlives the interaction runs with a
// context of its own (a job's, the scheduler's).
func (b *Bot) handle(ctx context.Context, s *discordgo.Session, i *discordgo.Interaction, recipients []string, respond respondFunc) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	start := b.clock.Now()
	kind, name := b.metricName(i)
	b.metrics.Interaction(kind, name)
	c := &interaction{s: s, i: i, recipients: recipients, respond: b.timed(respond, kind, name, start), log: b.log}
	var stopDeadlines func()
	c.ctx, stopDeadlines = withStoreDeadlines(ctx, c, b.opt.Timer, b.opt.AnswerWithin)
	defer stopDeadlines()
	stop := c.deferWhenSlow(b.opt.Timer, b.opt.AnswerWithin, b.log)
	defer func() {
		if r := recover(); r != nil {
			b.log.Error("handler panicked", "panic", r, "stack", string(debug.Stack()))
			b.fail(c, fmt.Errorf("panic: %v", r))
		}
		stop()
	}()
	b.langs.noteLocales(c)
	err := b.dispatch(c)
	if err == nil && !c.responded() {
		err = errNoAnswer
	}
	if err != nil {
		b.fail(c, err)
	}
	b.log.Debug("interaction", "type", i.Type.String(), "name", interactionName(i), "user", c.user().ID,
		"channel", i.ChannelID, "took", b.clock.Now().Sub(start), "err", err)
}

// errNoAnswer is a handler's bug: it returned without answering.
var errNoAnswer = errors.New("the handler did not answer")

func (b *Bot) dispatch(c *interaction) error {
	at := placeOf(c.i)
	switch c.i.Type {
	case discordgo.InteractionApplicationCommand:
		name, o := subcommand(c.i)
		h, ok := b.commands[name]
		if !ok {
			return refuse("error.unknown_command")
		}
		if at != placeServer && (at == placeUnknown || !inDMs[name]) {
			return notHere(at)
		}
		return h(c, o)
	case discordgo.InteractionApplicationCommandAutocomplete:
		name, o := subcommand(c.i)
		switch {
		case at == placeUnknown:
			return c.choices(nil)
		case name == "move":
			return b.play.moveAutocomplete(c, o)
		case name == "challenge":
			return moveTimeAutocomplete(c, o)
		case name == "notify":
			return c.choices(zoneChoices(o.str("timezone")))
		}
		return c.choices(nil)
	case discordgo.InteractionMessageComponent:
		id, err := parseCustomID(c.i.MessageComponentData().CustomID)
		h, ok := b.components[id.action]
		if err != nil || !ok {
			return refuse("error.old_button")
		}
		if err := ownPlace(c, id); err != nil {
			return err
		}
		if (at == placeForeign || at == placeUnknown || c.i.Context == discordgo.InteractionContextPrivateChannel) && !anywhere[id.action] {
			return notHere(at)
		}
		err = h(c, id)
		if errors.Is(err, errGameGone) && at != placeServer && !c.responded() && id.action != actRefresh {
			// A board of an answer-only game that ended while nobody
			// could be told: the click shows how it ended.
			return b.play.table.refresh(c, id)
		}
		return err
	}
	return refuse("error.unknown_interaction")
}

// groupCommand returns the subcommand that the options o of a group of
// subcommands name (its one option) and the subcommand's own options.
func groupCommand(o options) (string, options) {
	for name, v := range o {
		sub := options{}
		for _, x := range v.Options {
			sub[x.Name] = x
		}
		return name, sub
	}
	return "", nil
}

// subcommand returns the /kulami subcommand an interaction names and its
// options. /puzzle is read as a group puzzle of /kulami would be: the
// subcommand "puzzle", whose one option is the subcommand of /puzzle.
func subcommand(i *discordgo.Interaction) (string, options) {
	d := i.ApplicationCommandData()
	if d.Name == puzzleCommandName && len(d.Options) > 0 {
		return puzzleCommandName, options{d.Options[0].Name: d.Options[0]}
	}
	if d.Name != commandName || len(d.Options) == 0 {
		return "", nil
	}
	s := d.Options[0]
	o := options{}
	for _, v := range s.Options {
		o[v.Name] = v
	}
	return s.Name, o
}

func interactionName(i *discordgo.Interaction) string {
	switch i.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		name, _ := subcommand(i)
		return name
	case discordgo.InteractionMessageComponent:
		id, _, _ := strings.Cut(strings.TrimPrefix(i.MessageComponentData().CustomID, customIDPrefix+":"), ":")
		return id
	}
	return ""
}
