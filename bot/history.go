package bot

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/engine/rating"
	"github.com/kulami/kulami/storage"
)

// endingWords says how a game ended, from one player's side.
var endingWords = map[game.Ending]string{
	game.Normal:     "",
	game.Resigned:   "by resignation",
	game.TimedOut:   "on time",
	game.Aborted:    "",
	game.DrawAgreed: "by agreement",
}

var outcomeWords = map[game.Outcome]string{
	game.Won: "Won", game.Lost: "Lost", game.Drawn: "Drew", game.NoContest: "Called off, no result",
}

// historyCommand lists a player's recent finished games.
func (b *Bot) historyCommand(c *interaction, o options) error {
	id, name := target(c, o)
	games, err := b.store.History(c.i.GuildID, id, historySize, 0)
	if err != nil {
		return err
	}
	e := &discordgo.MessageEmbed{Title: "Recent Kulami games of " + truncate(name, 200), Color: embedColor}
	if len(games) == 0 {
		e.Description = "No finished games in this server yet."
		return c.reply(message{embeds: []*discordgo.MessageEmbed{e}, ephemeral: true})
	}
	var lines []string
	for _, h := range games {
		line := fmt.Sprintf("`#%d` <t:%d:d> vs **%s** — %s", h.GameID, h.At.Unix(), escape(h.Opponent.Name), outcomeWords[h.Outcome])
		if h.Ending != game.Aborted {
			line += fmt.Sprintf(" %d–%d", h.Score[h.Color].Total, h.Score[h.Color.Other()].Total)
		}
		if w := endingWords[h.Ending]; w != "" {
			line += " " + w
		}
		if d := h.Rating.After.Rating - h.Rating.Before.Rating; h.Rating.After != (rating.Rating{}) {
			line += " (" + ratingDiff(d) + ")"
		}
		lines = append(lines, line)
	}
	e.Description = strings.Join(lines, "\n")
	e.Footer = &discordgo.MessageEmbedFooter{Text: "/kulami export game:<number> gives a game's record"}
	return c.reply(message{embeds: []*discordgo.MessageEmbed{e}, ephemeral: true})
}

// exportCommand sends a game record as a .kgn file: of a finished game by
// its number, or of the channel's game.
func (b *Bot) exportCommand(c *interaction, o options) error {
	var text string
	var id uint64
	if n := o.int("game", 0); n > 0 {
		f, err := b.store.FinishedGame(c.i.GuildID, uint64(n))
		if errors.Is(err, storage.ErrNotFound) {
			return refuse("There is no finished game #%d in this server. **/kulami history** lists the numbers of recent games.", n)
		} else if err != nil {
			return err
		}
		text, id = f.Record, f.ID
	} else {
		g, err := b.store.Game(c.i.ChannelID)
		if errors.Is(err, storage.ErrNotFound) {
			return refuse("There is no game in this channel. To export a finished game, give its number: **/kulami export game:** (see **/kulami history**).")
		} else if err != nil {
			return err
		}
		text, id = g.Record().String(), g.ID
	}
	rec, err := engine.ParseRecord(text)
	if err != nil {
		return err
	}
	name := fmt.Sprintf("kulami-%d.kgn", id)
	summary := fmt.Sprintf("Game #%d: %s vs %s, %d moves. It is a game record (RECORD.md): the kulami command-line tool replays it move by move with `kulami replay %s`, draws it with `kulami render %s` and reviews it with `kulami review %s` (see %s).",
		id, escape(tagOr(rec, "Red")), escape(tagOr(rec, "Black")), len(rec.Moves), name, name, name, cliGuide)
	return c.reply(message{content: summary, ephemeral: true, file: &attachment{name: name, contentType: "application/x-kulami", data: []byte(text)}})
}

// cliGuide is where the README explains the command-line tool.
const cliGuide = "<https://github.com/kulami/kulami#the-command-line-tool>"

func tagOr(r *engine.Record, name string) string {
	if v, ok := r.Tag(name); ok && v != "" {
		return v
	}
	return name
}
