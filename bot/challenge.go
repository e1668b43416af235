package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/challenge"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
)

// permission is one Discord permission bit and the message ID of its
// name in Discord's UI.
type permission struct {
	bit  int64
	name string
}

// gamePermissions are what the bot needs in a channel to run a game there:
// boards, reminders and timeouts are messages with an image and an embed.
var gamePermissions = []permission{
	{discordgo.PermissionViewChannel, "permission.view_channel"},
	{discordgo.PermissionSendMessages, "permission.send_messages"},
	{discordgo.PermissionAttachFiles, "permission.attach_files"},
	{discordgo.PermissionEmbedLinks, "permission.embed_links"},
}

// inThreadPermissions are what the bot needs in a thread to run a game
// there: in a thread, Discord asks for Send Messages in Threads instead of
// Send Messages.
var inThreadPermissions = []permission{
	{discordgo.PermissionViewChannel, "permission.view_channel"},
	{discordgo.PermissionSendMessagesInThreads, "permission.send_messages_in_threads"},
	{discordgo.PermissionAttachFiles, "permission.attach_files"},
	{discordgo.PermissionEmbedLinks, "permission.embed_links"},
}

// threadPermissions are what the bot needs to open threads for games.
var threadPermissions = []permission{
	{discordgo.PermissionCreatePublicThreads, "permission.create_public_threads"},
	{discordgo.PermissionSendMessagesInThreads, "permission.send_messages_in_threads"},
}

// missing lists the names, in lang, of the permissions of want that have
// is missing.
func missing(lang i18n.Lang, have int64, want []permission) []string {
	var out []string
	for _, p := range want {
		if have&p.bit == 0 && have&discordgo.PermissionAdministrator == 0 {
			out = append(out, lang.T(p.name))
		}
	}
	return out
}

// channels knows the channels games are asked for in: whether the bot
// may play there, of what type they are, what keeps them busy. It is safe
// for concurrent use.
type channels struct {
	store interface {
		GameStore
		ChallengeStore
	}
	log *slog.Logger
	// types remembers the type of the channels games were asked for in
	// (a discordgo.ChannelType by channel ID).
	types sync.Map
}

// checkPermissions refuses to start a game in a channel where the bot
// could not post its boards, saying what is missing.
func (chs *channels) checkPermissions(c *interaction) error {
	want := gamePermissions
	typ := chs.channelType(c)
	if isThreadType(typ) {
		want = inThreadPermissions
	}
	if m := missing(c.lang(), c.i.AppPermissions, want); len(m) > 0 {
		return refuseN("challenge.missing_permissions", len(m), "Permissions", strings.Join(m, "**, **"), "List", strings.Join(m, ", "))
	}
	if typ == discordgo.ChannelTypeGuildPrivateThread {
		// The bot posts in a private thread only as a member of it.
		if err := c.s.ThreadJoin(c.i.ChannelID, discordgo.WithContext(c.ctx)); err != nil {
			chs.log.Warn("cannot join a private thread", "channel", c.i.ChannelID, "err", err)
			return refuse("challenge.private_thread")
		}
	}
	return nil
}

// checkPlace refuses to start a game where it cannot be played: in a
// server that added the bot, a channel where the bot could not post its
// boards (checkPermissions); elsewhere, where the game is answer-only, a
// server whose member may not use external apps, where every answer
// would be seen by its asker alone.
func (chs *channels) checkPlace(c *interaction) error {
	if placeOf(c.i) == placeServer {
		return chs.checkPermissions(c)
	}
	if publicRefused(c) {
		return refuse("anywhere.not_public")
	}
	return nil
}

// challenges handles the challenges between two people: /kulami
// challenge, accept, decline, the buttons of a challenge, and Rematch on a
// final board. It is safe for concurrent use.
type challenges struct {
	store interface {
		GameStore
		ChallengeStore
		SettingsStore
	}
	clock     Clock
	log       *slog.Logger
	moveTime  time.Duration // when neither the challenge nor the guild chooses one
	expiry    time.Duration // how long a challenge waits for an answer
	wake      wakeup
	out       *outbound
	langs     *locales
	notices   *notices // a challenge is a notice to the challenged
	table     *table
	chans     *channels
	computer  *computer  // a challenge of the bot itself is a game against it
	vacations *vacations // a player on vacation starts a game away
}

// challenge handles /kulami challenge.
func (cl *challenges) challenge(c *interaction, o options) error {
	me := c.user()
	oppID := o.userID("opponent")
	resolved := c.i.ApplicationCommandData().Resolved
	if resolved == nil { // a forged or outdated request: Discord resolves user options
		resolved = &discordgo.ApplicationCommandInteractionDataResolved{}
	}
	opp := resolved.Users[oppID]
	open := oppID == "" // anyone here may accept
	switch {
	case open:
	case opp == nil:
		return refuse("challenge.pick_opponent")
	case oppID == me.ID && placeOf(c.i) != placeServer:
		return refuse("anywhere.self")
	case c.recipients != nil && !slices.Contains(c.recipients, oppID) && !opp.Bot:
		// A DM or group DM that they are not in: they would never see it.
		return refuse("anywhere.not_here", "Opponent", escape(displayName(opp)))
	case oppID == c.i.AppID && placeOf(c.i) != placeServer:
		return refuse("anywhere.no_computer")
	case oppID == c.i.AppID:
		return cl.computer.playAI(c, o, "medium")
	case opp.Bot && placeOf(c.i) != placeServer:
		// /kulami play is refused here: say what works.
		return refuse("anywhere.bot", "Bot", escape(displayName(opp)))
	case opp.Bot:
		return refuse("challenge.bot", "Bot", escape(displayName(opp)))
	}
	if err := cl.chans.checkPlace(c); err != nil {
		return err
	}
	settings, err := cl.store.GuildSettings(c.ctx, c.guild())
	if err != nil {
		return err
	}
	layout, rules, err := gameOptions(o)
	if err != nil {
		return err
	}
	var asked game.Asked
	if v := o.str("move_time"); v != "" {
		clock, err := readMoveTime(v)
		if err != nil {
			return err
		}
		asked.Clock = &clock
	}
	switch o.str("weekends") {
	case "pause", "play":
		pause := o.str("weekends") == "pause"
		asked.Weekends = &pause
	case "":
	default:
		return refuse("challenge.pick_weekends")
	}
	set, err := defaults(settings, cl.moveTime).Settings(asked, false)
	if errors.Is(err, game.ErrLiveGame) {
		return refuse("challenge.live_weekends", "Clock", clockWords(c.lang(), *asked.Clock))
	} else if err != nil {
		return err
	}
	first := challenge.FirstRandom
	switch o.str("first") {
	case "me":
		first = challenge.FirstChallenger
	case "them":
		first = challenge.FirstOpponent
	}
	var to game.Player
	if !open {
		to = game.Player{UserID: oppID, Name: memberName(resolved, oppID)}
	}
	cc, err := challenge.New(challenge.Config{
		From:      game.Player{UserID: me.ID, Name: c.displayName()},
		To:        to,
		Layout:    layout,
		Rules:     rules,
		First:     first,
		MoveTime:  set.Clock.Start,
		Increment: set.Clock.Increment,
		Kind:      set.Clock.Kind,
		Timeouts:  set.Timeouts,
		Weekends:  set.Weekends,
		Open:      cl.expiry,
	}, cl.clock.Now())
	if err != nil {
		return err
	}
	ch := &storage.Challenge{GuildID: c.guild(), ChannelID: c.i.ChannelID, Challenge: *cc}
	sent := c.lang().T("challenge.open_sent")
	if !open {
		sent = c.lang().T("challenge.sent", "Opponent", escape(ch.To.Name))
	}
	return cl.openChallenge(c, ch, func(lang i18n.Lang) message { return challengeMessage(lang, ch, layout) }, sent)
}

// openChallenge stores the new challenge ch, posts its message (made by m
// in the server's language once ch has its ID; where the bot cannot post,
// in the challenged player's if the bot knows it) as a message of the bot's own, so that it notifies
// the challenged player whatever happens to the interaction, tells the
// challenger confirm and notes the message with the challenge.
func (cl *challenges) openChallenge(c *interaction, ch *storage.Challenge, m func(i18n.Lang) message, confirm string) error {
	if err := cl.store.CreateChallenge(c.ctx, ch); err != nil {
		if errors.Is(err, storage.ErrChannelBusy) {
			return cl.chans.busy(c)
		}
		return err
	}
	cl.wake.poke()
	if ch.GuildID == everywhere {
		// The bot cannot post here: the challenge is the answer, a
		// message that pings the challenged player. Its buttons close
		// it (an answer to them updates it); nothing else edits it.
		lang := cl.langs.publicLang(c)
		if ch.To.UserID != "" {
			lang = cl.notices.readerLang(c, ch.To.UserID) // the words are for the challenged
		}
		if _, err := c.answer.announce(c, cl.notices.answer(c, nil, m(lang))); err != nil {
			cl.withdrawUnseen(c, ch)
			return fmt.Errorf("answer with the challenge: %w", err)
		}
		return nil
	}
	msg, err := cl.notices.post(c.ctx, nil, ch.ChannelID, m(cl.langs.publicLang(c)))
	if err != nil {
		cl.withdrawUnseen(c, ch)
		return fmt.Errorf("post the challenge: %w", err)
	}
	if err := c.say(confirm); err != nil {
		cl.log.Warn("cannot confirm a challenge", "channel", ch.ChannelID, "err", err)
	}
	_, err = cl.store.UpdateChallenge(c.ctx, ch.ChannelID, func(s *storage.Challenge) error {
		if s.ID != ch.ID {
			return storage.ErrNotFound
		}
		s.MessageID = msg.ID
		return nil
	})
	if errors.Is(err, storage.ErrNotFound) {
		err = nil // answered already
	}
	return err
}

// withdrawUnseen withdraws the challenge ch, whose message failed: even
// if the interaction's time for the database ran out during the post
// (one that hung until the client gave up), since a challenge nobody
// sees would keep the channel busy until it expires.
func (cl *challenges) withdrawUnseen(c *interaction, ch *storage.Challenge) {
	ctx, cancel := context.WithTimeout(beyond(c.ctx), storeWithin)
	defer cancel()
	if derr := cl.store.DeleteChallenge(ctx, ch.ChannelID, ch.ID); derr != nil && !errors.Is(derr, storage.ErrNotFound) {
		cl.log.Error("cannot withdraw a challenge whose message failed", "channel", ch.ChannelID, "err", derr)
	}
}

// cmp returns the first non-zero duration.
func cmp(a, b time.Duration) time.Duration {
	if a != 0 {
		return a
	}
	return b
}

// gameOptions reads the layout and rules options of a new game.
func gameOptions(o options) (*engine.Layout, engine.Rules, error) {
	rules := engine.Basic
	if v := o.str("rules"); v != "" {
		r, err := engine.ParseRules(v)
		if err != nil {
			return nil, 0, refuse("challenge.pick_rules")
		}
		rules = r
	}
	seed := rand.Uint64()
	switch o.str("layout") {
	case "", "square":
		return engine.Square(), rules, nil
	case "random":
		return engine.RandomSquare(seed), rules, nil
	case "irregular":
		return engine.RandomIrregular(seed), rules, nil
	}
	return nil, 0, refuse("challenge.pick_layout")
}

// layoutName describes a board in a few words.
func layoutName(lang i18n.Lang, l *engine.Layout) string {
	switch {
	case l.Equal(engine.Square()):
		return lang.T("layout.square")
	case l.IsSquare():
		return lang.T("layout.random")
	}
	return lang.T("layout.irregular", "Width", l.Width(), "Height", l.Height())
}

// rulesNames are the message IDs of the rule sets' names with what they
// count.
var rulesNames = map[engine.Rules]string{
	engine.Basic: "rules_long.basic",
	engine.Area:  "rules_long.area",
	engine.Lines: "rules_long.lines",
	engine.Full:  "rules_long.full",
}

// firstNames are the message IDs of who moves first.
var firstNames = map[challenge.FirstChoice]string{
	challenge.FirstRandom:     "first.random",
	challenge.FirstChallenger: "first.challenger",
	challenge.FirstOpponent:   "first.opponent",
}

// memberName is a user's name in the guild, from an interaction's resolved
// data.
func memberName(r *discordgo.ApplicationCommandInteractionDataResolved, id string) string {
	if r == nil {
		return id
	}
	if m := r.Members[id]; m != nil && m.Nick != "" {
		return m.Nick
	}
	if u := r.Users[id]; u != nil {
		return displayName(u)
	}
	return id
}

// challengeMessage is the public message of an open challenge, in lang.
// A challenge to anyone pings nobody and has no Decline button: nobody
// declines it, the challenger withdraws it.
func challengeMessage(lang i18n.Lang, ch *storage.Challenge, l *engine.Layout) message {
	key, first, mentions := "challenge.message", lang.T(firstNames[ch.First]), []string{ch.To.UserID}
	if ch.ForAnyone() {
		key, mentions = "challenge.open_message", nil
		if ch.First == challenge.FirstOpponent {
			first = lang.T("first.accepter")
		}
	}
	text := lang.T(key, "Opponent", who(lang, ch.To), "Challenger", escape(ch.From.Name), "Board", layoutName(lang, l),
		"Rules", lang.T(rulesNames[ch.Rules]), "First", first, "MoveTime", clockWords(lang, ch.Clock()),
		"Expires", timestamp(ch.Expires))
	if ch.Weekends {
		text += "\n" + lang.T("challenge.weekends_paused")
	}
	if ch.Clock().Live() {
		text += "\n" + lang.T("challenge.live")
	}
	id := func(a string) string { return customID{action: a, channel: ch.ChannelID, id: ch.ID}.String() }
	buttons := []discordgo.MessageComponent{discordgo.Button{Label: lang.T("button.accept"), Style: discordgo.SuccessButton, CustomID: id(actAccept)}}
	if !ch.ForAnyone() {
		buttons = append(buttons, discordgo.Button{Label: lang.T("button.decline"), Style: discordgo.SecondaryButton, CustomID: id(actDecline)})
	}
	buttons = append(buttons, discordgo.Button{Label: lang.T("button.withdraw"), Style: discordgo.SecondaryButton, CustomID: id(actCancel)})
	return message{
		content:    text,
		mentions:   mentions,
		components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: buttons}},
	}
}

// challengedName is how a message names the player a challenge is for, in
// lang: their name, or "anyone" for an open challenge.
func challengedName(lang i18n.Lang, ch *storage.Challenge) string {
	if ch.ForAnyone() {
		return lang.T("challenge.anyone")
	}
	return escape(ch.To.Name)
}

// busy explains why a channel cannot take a new challenge.
func (chs *channels) busy(c *interaction) error {
	if g, err := chs.store.Game(c.ctx, c.i.ChannelID); err == nil {
		lang := c.lang()
		return refuse("challenge.busy_game", "Red", escape(playerName(lang, g.Player(engine.Red))), "Black", escape(playerName(lang, g.Player(engine.Black))))
	}
	if ch, err := chs.store.Challenge(c.ctx, c.i.ChannelID); err == nil {
		return refuse("challenge.busy_challenge", "Challenger", escape(ch.From.Name), "Opponent", challengedName(c.lang(), ch), "Expires", timestamp(ch.Expires))
	}
	return refuse("challenge.busy")
}

// accept starts the game of a challenge for its challenged player.
func (cl *challenges) accept(c *interaction, ch *storage.Challenge) error {
	challenged := game.Player{UserID: c.user().ID, Name: c.displayName()}
	now := cl.clock.Now()
	gg, away, err := cl.vacations.newGame(c.ctx, now, func(w challenge.Where) (*game.Game, error) {
		gg, err := ch.Accept(challenged, now, rand.IntN(2) == 0, w)
		if err != nil {
			return nil, &challengeError{err: err, ch: ch}
		}
		return gg, nil
	})
	if err != nil {
		return err
	}
	challenger, players := ch.From, gg.Players()
	g := placed(storage.Game{GuildID: ch.GuildID, ChannelID: ch.ChannelID}, gg, now)
	if ch.GuildID == everywhere {
		g.ServerID = c.i.GuildID // the server without the bot it is played in, if any
	}
	lang := cl.langs.publicLang(c)
	thread, note, err := cl.threadWanted(c, lang, ch)
	if err != nil {
		return err
	}
	if err := cl.store.AcceptChallenge(c.ctx, ch.ChannelID, ch.ID, g); err != nil {
		if errors.Is(err, storage.ErrNotFound) {
			return errChallengeGone
		}
		return err
	}
	// The game's thread is opened only now that the acceptance has
	// committed, so that an acceptance that lost the race for the
	// challenge (to a second click, a withdrawal, the expiry) opens none.
	// Until MoveIntoThread notes the thread, the game is the channel's.
	// Opening the thread first and deleting it when the commit fails would
	// not do: Discord asks Manage Threads of whoever deletes a thread,
	// which the bot need not have.
	if thread {
		g, note = cl.openThread(c, lang, ch, g)
	}
	cl.wake.poke()
	text := lang.T("challenge.accepted", "Opponent", escape(playerName(lang, challenged)), "Challenger", escape(playerName(lang, challenger)),
		"First", colorMark[engine.Red]+" "+escape(playerName(lang, players[engine.Red])))
	if g.ChannelID != ch.ChannelID {
		text += " " + lang.T("challenge.in_thread", "Thread", "<#"+g.ChannelID+">")
	}
	if note != "" {
		text += "\n" + note
	}
	closed := message{content: text}
	var answered error
	if c.i.Type == discordgo.InteractionMessageComponent {
		answered = c.update(closed)
	} else {
		cl.out.editChallenge(c.ctx, ch, text)
		answered = c.reply(closed)
	}
	err = cl.table.shown(c.ctx, c, g, "", answered)
	cl.vacations.tellAllAway(c.ctx, g, away)
	return err
}

// threadWanted reports whether a new game of the challenge ch is to be
// played in a thread of its own: the guild plays in threads, the
// challenge is not in a thread already and the bot may open one. If the
// bot may not, it returns a note in lang saying why the game stays in the
// channel.
func (cl *challenges) threadWanted(c *interaction, lang i18n.Lang, ch *storage.Challenge) (bool, string, error) {
	if ch.GuildID == everywhere {
		return false, "", nil // no threads where the bot is no member: the game is played here
	}
	settings, err := cl.store.GuildSettings(c.ctx, ch.GuildID)
	if err != nil || !settings.Threads {
		return false, "", err
	}
	if isThreadType(cl.chans.channelType(c)) {
		return false, "", nil // a game asked for in a thread (a rematch) is played there
	}
	if m := missing(lang, c.i.AppPermissions, threadPermissions); len(m) > 0 {
		return false, lang.T("challenge.no_thread_permission", "Permissions", strings.Join(m, "**, **")), nil
	}
	return true, "", nil
}

// openThread opens a thread for the game g, just stored in the channel of
// its challenge ch, and moves g into it. It returns the game as stored
// now and, if it could not, g and a note in lang saying that the game is
// played in the channel.
func (cl *challenges) openThread(c *interaction, lang i18n.Lang, ch *storage.Challenge, g *storage.Game) (*storage.Game, string) {
	name := truncate(lang.T("challenge.thread_name", "Red", playerName(lang, g.Player(engine.Red)), "Black", playerName(lang, g.Player(engine.Black))), 100)
	start := &discordgo.ThreadStart{Name: name, AutoArchiveDuration: 10080, Type: discordgo.ChannelTypeGuildPublicThread}
	var (
		th  *discordgo.Channel
		err error
	)
	if ch.MessageID != "" {
		th, err = c.s.MessageThreadStartComplex(ch.ChannelID, ch.MessageID, start, discordgo.WithContext(c.ctx))
	} else {
		th, err = c.s.ThreadStartComplex(ch.ChannelID, start, discordgo.WithContext(c.ctx))
	}
	if err != nil {
		cl.log.Warn("cannot open a thread for a game; playing in the channel", "channel", ch.ChannelID, "err", err)
		return g, lang.T("challenge.thread_failed")
	}
	moved, err := cl.store.MoveIntoThread(c.ctx, ch.ChannelID, g.ID, th.ID)
	if err != nil {
		cl.log.Error("cannot move a game into its thread; playing in the channel", "channel", ch.ChannelID, "thread", th.ID, "err", err)
		return g, lang.T("challenge.thread_failed")
	}
	return moved, ""
}

// decline closes a challenge at its challenged player's wish.
func (cl *challenges) decline(c *interaction, ch *storage.Challenge) error {
	if err := ch.CanDecline(game.Player{UserID: c.user().ID}); err != nil {
		return &challengeError{err: err, ch: ch, decline: true}
	}
	return cl.closeChallenge(c, ch, cl.langs.publicLang(c).T("challenge.declined", "Opponent", escape(ch.To.Name), "Challenger", escape(ch.From.Name)))
}

// withdraw withdraws a challenge at its challenger's wish.
func (cl *challenges) withdraw(c *interaction, ch *storage.Challenge) error {
	if err := ch.CanWithdraw(game.Player{UserID: c.user().ID}); err != nil {
		return &challengeError{err: err, ch: ch}
	}
	lang := cl.langs.publicLang(c)
	text := lang.T("challenge.withdrawn", "Challenger", escape(ch.From.Name), "Opponent", challengedName(lang, ch))
	if ch.ForAnyone() {
		text = lang.T("challenge.open_withdrawn", "Challenger", escape(ch.From.Name))
	}
	return cl.closeChallenge(c, ch, text)
}

// closeChallenge deletes a challenge and says so on its message.
func (cl *challenges) closeChallenge(c *interaction, ch *storage.Challenge, text string) error {
	if err := cl.store.DeleteChallenge(c.ctx, ch.ChannelID, ch.ID); err != nil {
		if errors.Is(err, storage.ErrNotFound) {
			return refuse("challenge.closed")
		}
		return err
	}
	if c.i.Type == discordgo.InteractionMessageComponent {
		return c.update(message{content: text})
	}
	cl.out.editChallenge(c.ctx, ch, text)
	return c.reply(message{content: text})
}

// channelType returns the type of the interaction's channel. Discord's
// interaction carries it, but discordgo drops it, so the bot asks for the
// channel once and remembers its type (a channel never changes type). If
// it cannot tell, it takes the channel for a text channel.
func (chs *channels) channelType(c *interaction) discordgo.ChannelType {
	if t, ok := chs.types.Load(c.i.ChannelID); ok {
		return t.(discordgo.ChannelType)
	}
	ch, err := c.s.Channel(c.i.ChannelID, discordgo.WithContext(c.ctx))
	if err != nil {
		chs.log.Warn("cannot tell whether a channel is a thread", "channel", c.i.ChannelID, "err", err)
		return discordgo.ChannelTypeGuildText
	}
	chs.types.Store(ch.ID, ch.Type)
	return ch.Type
}

// isThreadType reports whether channels of type t are threads.
func isThreadType(t discordgo.ChannelType) bool {
	switch t {
	case discordgo.ChannelTypeGuildNewsThread, discordgo.ChannelTypeGuildPublicThread, discordgo.ChannelTypeGuildPrivateThread:
		return true
	}
	return false
}
