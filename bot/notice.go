package bot

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
)

// notices is the one way out for what pings a player: every notice (a
// board that hands over the turn, a reminder, a claim, time given, a
// vacation, an abort, a tournament's, the daily puzzle's, a season's)
// goes through it, and it applies, for each reader:
//
//   - their quiet hours, by the domain's rule (game.MoveTime.Hushes for a
//     notice of a game, game.Quiet.Holds for one of no game): a reader in
//     them is taken out of the message's pings, and a message that then
//     pings nobody it meant to is sent silent (SUPPRESS_NOTIFICATIONS), so
//     that neither a mention nor a DM wakes them; the notices that can
//     wait (reminders, the warning that a vacation runs out) are timed
//     out of quiet hours by the scheduler instead;
//   - their language where the message is to one person: a DM in theirs
//     (their Discord locale as last seen), the words an answer addresses
//     to one player of a DM or group DM in that player's when the bot
//     knows it (readerLang);
//   - the place: a channel of a server that added the bot gets the
//     bot's message, a game where the bot cannot post (answerOnly) gets
//     a DM to each player concerned; links name the place as Discord
//     opens it (placeLink).
//
// It is safe for concurrent use.
type notices struct {
	settings SettingsStore
	langs    *locales
	clock    Clock
	out      *outbound
	log      *slog.Logger
}

// hushed reports whether a notice to userID now comes without its ping:
// of game g (nil for a notice of no game), by game.MoveTime.Hushes; else
// by their quiet hours alone. A user whose settings cannot be read is
// pinged: a lost ping is worse than one at night.
func (n *notices) hushed(ctx context.Context, g *game.Game, userID string) bool {
	u, err := n.settings.UserSettings(ctx, userID)
	if err != nil || u.Quiet == (game.Quiet{}) {
		return false
	}
	if g == nil {
		return u.Quiet.Holds(n.clock.Now(), zoneOf(u))
	}
	return g.Clock().Hushes(u.Quiet, n.clock.Now(), zoneOf(u))
}

// hush returns m with every reader it pings who is hushed (of game g, nil
// for none) taken out of its pings; silent if it pinged someone and now
// pings nobody.
func (n *notices) hush(ctx context.Context, g *game.Game, m message) message {
	if len(m.mentions) == 0 {
		return m
	}
	var keep []string
	for _, id := range m.mentions {
		if !n.hushed(ctx, g, id) {
			keep = append(keep, id)
		}
	}
	if len(keep) == 0 {
		m.silent = true
	}
	m.mentions = keep
	return m
}

// post sends m, a notice of game g (nil for none), in channelID as the
// bot, hushed.
func (n *notices) post(ctx context.Context, g *game.Game, channelID string, m message) (*discordgo.Message, error) {
	return n.out.send(ctx, channelID, n.hush(ctx, g, m))
}

// dm sends userID the message say writes in their language, a notice of
// game g (nil for none): silent when hushed. A user who accepts no DM
// is logged.
func (n *notices) dm(ctx context.Context, g *game.Game, userID string, say func(lang i18n.Lang) message) {
	m := say(n.langs.userLang(ctx, userID))
	m.mentions = nil
	m.silent = n.hushed(ctx, g, userID)
	if err := n.out.dmMessage(ctx, userID, m); err != nil {
		n.log.Info("cannot send a direct message", "user", userID, "err", err)
	}
}

// tell says a notice of g to the players users: in g's channel, in the
// server's language, pinging them unless hushed; or, where the bot cannot
// post (answerOnly), by DM to each in their own language, silent when
// hushed. say writes the notice in lang to who, "" for the channel.
func (n *notices) tell(ctx context.Context, g *storage.Game, users []string, say func(lang i18n.Lang, who string) message) error {
	if answerOnly(g) {
		for _, id := range users {
			n.dm(ctx, g.Game, id, func(lang i18n.Lang) message { return say(lang, id) })
		}
		return nil
	}
	m := say(n.langs.guildLang(ctx, g.GuildID), "")
	m.mentions = users
	_, err := n.post(ctx, g.Game, g.ChannelID, m)
	return err
}

// answer is m, the answer to c that tells userID a notice of g (nil for
// none), hushed: silent if userID is in their quiet hours.
func (n *notices) answer(c *interaction, g *game.Game, m message) message {
	return n.hush(c.ctx, g, m)
}

// readerLang returns the language of words c's answer addresses to
// userID: the channel's in a server that added the bot (everyone there
// reads them), else userID's Discord locale if the bot knows it (a DM or
// group DM, where the words are for them), else c's.
func (n *notices) readerLang(c *interaction, userID string) i18n.Lang {
	if placeOf(c.i) == placeServer {
		return n.langs.publicLang(c)
	}
	u, err := n.settings.UserSettings(c.ctx, userID)
	if err != nil || u.Locale == "" {
		return c.lang()
	}
	return i18n.FromLocale(u.Locale)
}

// placeLink is the link that opens channelID (and messageID, if any) of
// game g where Discord shows it: under its server, or under @me for a DM
// or group DM.
func placeLink(g *storage.Game, messageID string) string {
	guild := g.GuildID
	if answerOnly(g) {
		guild = g.ServerID
		if guild == "" {
			guild = "@me" // a DM or group DM
		}
	}
	if messageID == "" {
		return fmt.Sprintf("https://discord.com/channels/%s/%s", guild, g.ChannelID)
	}
	return fmt.Sprintf("https://discord.com/channels/%s/%s/%s", guild, g.ChannelID, messageID)
}
