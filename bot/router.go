package bot

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"strings"

	"github.com/bwmarrin/discordgo"
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

// userID returns the ID of a user option, or "".
func (o options) userID(name string) string { return o.str(name) }

type commandHandler func(b *Bot, c *interaction, o options) error

type componentHandler func(b *Bot, c *interaction, id customID) error

// commandHandlers runs each subcommand of /kulami.
var commandHandlers = map[string]commandHandler{
	"challenge":   (*Bot).challenge,
	"accept":      (*Bot).acceptCommand,
	"decline":     (*Bot).declineCommand,
	"move":        (*Bot).moveCommand,
	"board":       (*Bot).boardCommand,
	"resign":      (*Bot).resignCommand,
	"abort":       (*Bot).abortCommand,
	"draw":        (*Bot).drawCommand,
	"rules":       func(_ *Bot, c *interaction, _ options) error { return c.reply(rulesMessage(0)) },
	"help":        func(_ *Bot, c *interaction, _ options) error { return c.reply(helpMessage()) },
	"leaderboard": (*Bot).leaderboardCommand,
	"stats":       (*Bot).statsCommand,
	"history":     (*Bot).historyCommand,
	"export":      (*Bot).exportCommand,
	"notify":      (*Bot).notifyCommand,
	"settings":    (*Bot).settingsCommand,
	"play":        (*Bot).playCommand,
	"hint":        (*Bot).hintCommand,
}

// inDMs are the subcommands that also work outside a server.
var inDMs = map[string]bool{"rules": true, "help": true}

// componentHandlers runs each component action.
var componentHandlers = map[string]componentHandler{
	actMove:       (*Bot).moveSelect,
	actResign:     (*Bot).resignButton,
	actResignYes:  (*Bot).resignConfirm,
	actResignNo:   (*Bot).resignCancel,
	actAccept:     (*Bot).acceptButton,
	actDecline:    (*Bot).declineButton,
	actCancel:     (*Bot).cancelButton,
	actRules:      func(_ *Bot, c *interaction, id customID) error { return c.update(rulesMessage(id.n)) },
	actLeaders:    (*Bot).leaderboardPage,
	actDrawAccept: (*Bot).drawAccept,
	actDrawReject: (*Bot).drawReject,
}

// handle answers one interaction, from either transport. Every interaction
// gets an answer: a handler's error is translated for the user by fail.
func (b *Bot) handle(ctx context.Context, s *discordgo.Session, i *discordgo.Interaction, respond respondFunc) {
	c := &interaction{ctx: ctx, s: s, i: i, respond: respond}
	start := b.clock.Now()
	stop := c.deferWhenSlow(b.opt.AnswerWithin, b.log)
	defer func() {
		if r := recover(); r != nil {
			b.log.Error("handler panicked", "panic", r, "stack", string(debug.Stack()))
			b.fail(c, fmt.Errorf("panic: %v", r))
		}
		stop()
	}()
	err := b.dispatch(c)
	if err == nil && !c.responded {
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
	switch c.i.Type {
	case discordgo.InteractionApplicationCommand:
		name, o := subcommand(c.i)
		h, ok := commandHandlers[name]
		if !ok {
			return refuse("I don't know that command any more. Discord may still show an old list: restart Discord, then see /kulami help.")
		}
		if c.i.GuildID == "" && !inDMs[name] {
			return refuse("Kulami is played in a server: use /kulami there, in a channel where I can post. Here you can read **/kulami rules** and **/kulami help**.")
		}
		return h(b, c, o)
	case discordgo.InteractionApplicationCommandAutocomplete:
		name, o := subcommand(c.i)
		if name != "move" || c.i.GuildID == "" {
			return c.choices(nil)
		}
		return b.moveAutocomplete(c, o)
	case discordgo.InteractionMessageComponent:
		id, err := parseCustomID(c.i.MessageComponentData().CustomID)
		h, ok := componentHandlers[id.action]
		if err != nil || !ok {
			return refuse("That button is from an older version of me and no longer works. Use **/kulami board** to get a fresh board.")
		}
		return h(b, c, id)
	}
	return refuse("I can't handle that kind of interaction.")
}

// subcommand returns the /kulami subcommand an interaction names and its
// options.
func subcommand(i *discordgo.Interaction) (string, options) {
	d := i.ApplicationCommandData()
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
