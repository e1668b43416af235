package bot

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/engine/rating"
	"github.com/kulami/kulami/engine/tournament"
	"github.com/kulami/kulami/storage"
)

// endingWords are the message IDs that say how a game ended, from one
// player's side.
var endingWords = map[game.Ending]string{
	game.Normal:      "",
	game.Resigned:    "history.by_resignation",
	game.TimedOut:    "history.on_time",
	game.Aborted:     "",
	game.DrawAgreed:  "history.by_agreement",
	game.Adjudicated: "history.by_adjudication",
}

// outcomeWords are the message IDs of a game's outcome for one player.
var outcomeWords = map[game.Outcome]string{
	game.Won: "history.won", game.Lost: "history.lost", game.Drawn: "history.drew", game.NoContest: "history.no_result",
}

// forfeitWords are the message IDs of a tournament game won or lost by
// forfeit, for one player: what the board and the standings say too.
var forfeitWords = map[tournament.Side]string{
	tournament.WonByForfeit: "history.won_by_forfeit", tournament.LostByForfeit: "history.lost_by_forfeit",
}

// historyCommand lists a player's recent finished games.
func (rs *records) historyCommand(c *interaction, o options) error {
	id, name := target(c, o)
	lang := c.lang()
	games, err := rs.store.History(c.ctx, c.guild(), id, historySize, 0)
	if err != nil {
		return err
	}
	e := &discordgo.MessageEmbed{Title: lang.T("history.title", "Player", truncate(name, 200)), Color: embedColor}
	if len(games) == 0 {
		e.Description = lang.T(c.placed("history.empty"))
		return c.reply(message{embeds: []*discordgo.MessageEmbed{e}, ephemeral: true})
	}
	var lines []string
	for _, h := range games {
		result := lang.T(outcomeWords[h.Outcome])
		if w, ok := forfeitWords[h.Forfeit]; ok {
			result = lang.T(w)
		} else if h.Ending != game.Aborted {
			result += " " + lang.T("history.score", "Points", h.Score[h.Color].Total, "Against", h.Score[h.Color.Other()].Total)
		}
		if w := endingWords[h.Ending]; h.Claimed {
			result += " " + lang.T("claim.history")
		} else if w != "" {
			result += " " + lang.T(w)
		}
		if h.Clock.Whole() {
			result += " · ⏱ " + h.Clock.String()
		}
		line := lang.T("history.line", "Game", fmt.Sprintf("`#%d`", h.GameID), "Date", fmt.Sprintf("<t:%d:d>", h.At.Unix()), "Opponent", escape(playerName(lang, h.Opponent)), "Result", result)
		if d := h.Rating.After.Rating - h.Rating.Before.Rating; h.Rating.After != (rating.Rating{}) {
			line += " (" + ratingDiff(d) + ")"
		}
		lines = append(lines, line)
	}
	e.Description = strings.Join(lines, "\n")
	e.Footer = &discordgo.MessageEmbedFooter{Text: lang.T("history.footer")}
	return c.reply(message{embeds: []*discordgo.MessageEmbed{e}, ephemeral: true})
}

// exportCommand sends a game record as a .kgn file: of a finished game by
// its number, or of the channel's game. Outside the servers that added the
// bot, a finished game by number goes only to its players, or in its own
// DM or group DM.
func (rs *records) exportCommand(c *interaction, o options) error {
	var text string
	var id uint64
	if n := o.int("game", 0); n > 0 {
		f, err := rs.store.FinishedGame(c.ctx, c.guild(), uint64(n))
		if err == nil && c.guild() == everywhere && f.ChannelID != c.i.ChannelID {
			// A game of others' DMs is theirs: only its players get it elsewhere.
			if _, serr := f.Seat(c.user().ID); serr != nil {
				err = storage.ErrNotFound
			}
		}
		if errors.Is(err, storage.ErrNotFound) {
			return refuse(c.placed("history.no_such_game"), "Game", uint64(n))
		} else if err != nil {
			return err
		}
		text, id = withDays(f.RecordText, f.Game.Game), f.ID
	} else {
		g, err := rs.store.Game(c.ctx, c.i.ChannelID)
		if errors.Is(err, storage.ErrNotFound) {
			return refuse("export.no_game")
		} else if err != nil {
			return err
		}
		text, id = withDays(g.Record().String(), g.Game), g.ID
	}
	rec, err := engine.ParseRecord(text)
	if err != nil {
		return err
	}
	name := fmt.Sprintf("kulami-%d.kgn", id)
	lang := c.lang()
	summary := lang.N("export.summary", len(rec.Moves), "Game", id, "Red", escape(tagOr(rec, "Red", lang.T("color.red"))),
		"Black", escape(tagOr(rec, "Black", lang.T("color.black"))), "File", name, "Guide", cliGuide)
	return c.reply(message{content: summary, ephemeral: true, file: &attachment{name: name, contentType: "application/x-kulami", data: []byte(text)}})
}

// withDays returns the record text of g with what a game played over days
// adds: its clock for the whole game, as a tag MoveTime as the bot reads
// it ("10m", "3d+1d"; a clock per move has no tag), and once it has ended the
// plans its players set, as comments after the moves (RECORD.md skips
// comments, so every reader of records still reads it). The plans of a
// game that goes on are private: none is written.
func withDays(text string, g *game.Game) string {
	rec, err := engine.ParseRecord(text)
	plans := g.PlanLog()
	if err != nil || !g.Clock().Whole() && len(plans) == 0 {
		return text // as every game of earlier releases
	}
	if g.Clock().Whole() {
		rec.SetTag("MoveTime", g.Clock().String())
	}
	var b strings.Builder
	b.WriteString(rec.String())
	for _, p := range plans {
		lines := make([]string, len(p.Lines))
		for i, l := range p.Lines {
			cells := make([]string, len(l))
			for j, c := range l {
				cells[j] = c.String()
			}
			lines[i] = strings.Join(cells, " ")
		}
		fmt.Fprintf(&b, "{Plan of %s after move %d: %s}\n", p.By.Title(), p.Ply, strings.Join(lines, " | "))
	}
	return b.String()
}

// cliGuide is where the README explains the command-line tool.
const cliGuide = "<https://github.com/kulami/kulami#the-command-line-tool>"

// tagOr returns the record's tag name, or def if it has none.
func tagOr(r *engine.Record, name, def string) string {
	if v, ok := r.Tag(name); ok && v != "" {
		return v
	}
	return def
}
