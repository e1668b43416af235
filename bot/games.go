package bot

import (
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/storage"
)

// maxListed is the most games /kulami games lists.
const maxListed = 25

// maxDescription is the most characters Discord takes in an embed's
// description.
const maxDescription = 4096

// gamesCommand handles /kulami games: the games going on in the server,
// newest first,
// each with its players, its move, whose turn it is and a link to its
// board, for anyone who wants to watch; with mine:true, and outside the
// servers that added the bot, the caller's own games in every place. It answers only the asker: a list that is out of
// date at the next move has no place in the channel.
func (rs *records) gamesCommand(c *interaction, o options) error {
	lang := c.lang()
	e := &discordgo.MessageEmbed{Title: lang.T("games.title"), Color: embedColor}
	var games []*storage.Game
	var total int
	var err error
	empty := "games.empty"
	if o.bool("mine") || c.guild() == everywhere { // outside a server, the games of others' DMs are theirs
		e.Title, empty = lang.T("anywhere.games_mine"), "anywhere.games_mine_empty"
		games, total, err = rs.players.NewestPlayerGames(c.ctx, c.user().ID, maxListed)
	} else {
		games, total, err = rs.store.GuildGames(c.ctx, c.guild(), maxListed)
	}
	if err != nil {
		return err
	}
	if len(games) == 0 {
		e.Description = lang.T(empty)
		return c.reply(message{embeds: []*discordgo.MessageEmbed{e}, ephemeral: true})
	}
	var lines []string
	size := 0
	for _, g := range games {
		line := gameLine(lang, g)
		if size+len(line)+1 > maxDescription-100 {
			break
		}
		lines = append(lines, line)
		size += len(line) + 1
	}
	if listed := len(lines); listed < total {
		lines = append(lines, lang.N("games.more", total-listed))
	}
	e.Description = strings.Join(lines, "\n")
	e.Footer = &discordgo.MessageEmbedFooter{Text: lang.T("games.footer")}
	return c.reply(message{embeds: []*discordgo.MessageEmbed{e}, ephemeral: true})
}

// gameLine is one game of /kulami games.
func gameLine(lang i18n.Lang, g *storage.Game) string {
	red, black := g.Player(engine.Red), g.Player(engine.Black)
	where := "<#" + g.ChannelID + ">"
	if g.BoardMessageID != "" {
		where += " · [" + lang.T("games.board") + "](" + boardLink(lang, g) + ")"
	}
	turn := g.ToMove()
	return lang.T("games.line", "Game", fmt.Sprintf("`#%d`", g.ID),
		"Red", colorMark[engine.Red]+" "+escape(truncate(playerName(lang, red), 32)), "Black", colorMark[engine.Black]+" "+escape(truncate(playerName(lang, black), 32)),
		"Move", g.Ply()+1, "Player", colorMark[turn]+" "+escape(truncate(playerName(lang, g.Player(turn)), 32)), "Where", where)
}
