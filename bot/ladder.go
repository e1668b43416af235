package bot

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/rating"
	"github.com/kulami/kulami/storage"
)

// leaderboardSize is the number of players on a page of the leaderboard.
const leaderboardSize = 10

// historySize is the number of games /kulami history lists.
const historySize = 10

// trendGames is the number of games a rating trend covers.
const trendGames = 10

// showRating writes a rating as people read it: rounded, with a question
// mark while it is provisional (few games, high deviation).
func showRating(r rating.Rating) string {
	s := fmt.Sprintf("%.0f", r.Rating)
	if rating.Provisional(r) {
		s += "?"
	}
	return s
}

// ratingDiff writes a change of rating in whole points with its sign:
// "+12", "-3", and "+0" for less than half a point either way (%+.0f
// alone writes "-0" for a small loss).
func ratingDiff(d float64) string {
	r := math.Round(d)
	if r == 0 {
		r = 0 // not -0
	}
	return fmt.Sprintf("%+.0f", r)
}

// ratingLine tells how a game moved both players' ratings.
func ratingLine(g *storage.Game, ch [2]storage.RatingChange) string {
	var parts []string
	for c, r := range ch {
		if r.After == (rating.Rating{}) {
			return ""
		}
		d := r.After.Rating - r.Before.Rating
		parts = append(parts, fmt.Sprintf("%s %s → %s (%s)", truncate(g.Player(engine.Color(c)).Name, 40), showRating(r.Before), showRating(r.After), ratingDiff(d)))
	}
	ladder := "Ratings"
	if g.Ladder() == storage.AI {
		ladder = "Ratings vs the computer"
	}
	return ladder + ": " + strings.Join(parts, " · ")
}

// ladderOf reads the ladder option: people (default) or the computer.
func ladderOf(o options) storage.Ladder {
	if o.str("ladder") == "ai" {
		return storage.AI
	}
	return storage.Human
}

// leaderboardCommand shows the first (or the chosen) page of a ladder.
func (b *Bot) leaderboardCommand(c *interaction, o options) error {
	m, err := b.leaderboard(c.i.GuildID, ladderOf(o), o.int("page", 1)-1)
	if err != nil {
		return err
	}
	return c.reply(m)
}

// leaderboardPage shows another page, from the Previous and Next buttons.
func (b *Bot) leaderboardPage(c *interaction, id customID) error {
	m, err := b.leaderboard(id.channel, storage.Ladder(id.id), id.n)
	if err != nil {
		return err
	}
	return c.update(m)
}

// leaderboard is page p (from 0) of a ladder of a guild.
func (b *Bot) leaderboard(guildID string, ladder storage.Ladder, p int) (message, error) {
	if ladder != storage.Human && ladder != storage.AI {
		return message{}, refuse("That leaderboard does not exist any more; use **/kulami leaderboard**.")
	}
	p = max(p, 0)
	page, total, err := b.store.Leaderboard(guildID, ladder, p*leaderboardSize, leaderboardSize)
	if err != nil {
		return message{}, err
	}
	pages := max(1, (total+leaderboardSize-1)/leaderboardSize)
	if p >= pages && total > 0 {
		p = pages - 1
		if page, total, err = b.store.Leaderboard(guildID, ladder, p*leaderboardSize, leaderboardSize); err != nil {
			return message{}, err
		}
	}
	title := "Kulami leaderboard"
	if ladder == storage.AI {
		title = "Kulami leaderboard: games against the computer"
	}
	e := &discordgo.MessageEmbed{Title: title, Color: embedColor}
	if total == 0 {
		e.Description = "No rated games yet. Be the first: **/kulami challenge** someone!"
		return message{embeds: []*discordgo.MessageEmbed{e}}, nil
	}
	var lines []string
	for i, pr := range page {
		rank := p*leaderboardSize + i + 1
		medal := map[int]string{1: "🥇", 2: "🥈", 3: "🥉"}[rank]
		if medal == "" {
			medal = fmt.Sprintf("`%2d.`", rank)
		}
		lines = append(lines, fmt.Sprintf("%s **%s** — %s · %d–%d–%d", medal, escape(pr.Name), showRating(pr.Rating), pr.Wins, pr.Losses, pr.Draws))
	}
	e.Description = strings.Join(lines, "\n")
	e.Footer = &discordgo.MessageEmbedFooter{Text: fmt.Sprintf("Page %d of %d · %d players · wins–losses–draws · ? = provisional rating (few games)", p+1, pages, total)}
	m := message{embeds: []*discordgo.MessageEmbed{e}}
	if pages > 1 {
		m.components = pager(actLeaders, guildID, uint64(ladder), p, pages)
	}
	return m, nil
}

// target is the user a stats or history command is about: the player
// option, or the caller.
func target(c *interaction, o options) (id, name string) {
	if id := o.userID("player"); id != "" {
		return id, memberName(c.i.ApplicationCommandData().Resolved, id)
	}
	return c.user().ID, c.displayName()
}

// statsCommand shows a player's rating, trend, record, best win, streak
// and head-to-head against the caller.
func (b *Bot) statsCommand(c *interaction, o options) error {
	id, name := target(c, o)
	pr, err := b.store.Profile(c.i.GuildID, id, storage.Human)
	if errors.Is(err, storage.ErrNotFound) {
		if ai, err := b.store.Profile(c.i.GuildID, id, storage.AI); err == nil {
			// Only games against the computer: show those, not "no games".
			return c.reply(message{embeds: []*discordgo.MessageEmbed{{
				Title: "Kulami stats: " + truncate(ai.Name, 200), Color: embedColor,
				Description: "No rated games against people yet.",
				Fields:      []*discordgo.MessageEmbedField{{Name: "Against the computer", Value: aiRecord(ai), Inline: true}},
			}}})
		}
		if id == c.user().ID {
			return refuse("You have no rated games in this server yet. Challenge someone with **/kulami challenge**!")
		}
		return refuse("%s has no rated games in this server yet.", escape(name))
	} else if err != nil {
		return err
	}
	trend, err := b.store.RatingTrend(c.i.GuildID, id, storage.Human, trendGames)
	if err != nil {
		return err
	}
	e := &discordgo.MessageEmbed{Title: "Kulami stats: " + truncate(pr.Name, 200), Color: embedColor}
	field := func(name, value string) {
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: name, Value: value, Inline: true})
	}
	r := fmt.Sprintf("**%s** (±%.0f)", showRating(pr.Rating), 2*pr.Rating.RD)
	if rating.Provisional(pr.Rating) {
		r += "\nprovisional: few games yet"
	}
	field("Rating", r)
	field("Record", fmt.Sprintf("%s\n%d game%s", tallyWords(pr.Tally), pr.Games(), plural(pr.Games())))
	field("Streak", streak(pr.Streak))
	if len(trend) > 1 {
		first, last := trend[0].Rating.Rating, trend[len(trend)-1].Rating.Rating
		field(fmt.Sprintf("Trend (last %d games)", len(trend)), fmt.Sprintf("%s\n%.0f → %.0f (%s)", sparkline(trend), first, last, ratingDiff(last-first)))
	}
	if w := pr.BestWin; w != nil {
		field("Best win", fmt.Sprintf("%s (%.0f), game #%d", escape(w.OpponentName), w.OpponentRating, w.GameID))
	}
	if id != c.user().ID {
		t, err := b.store.HeadToHead(c.i.GuildID, c.user().ID, id)
		if err != nil {
			return err
		}
		if t.Games() > 0 {
			field("You against them", tallyWords(t))
		} else {
			field("You against them", "no games yet")
		}
	}
	if ai, err := b.store.Profile(c.i.GuildID, id, storage.AI); err == nil {
		field("Against the computer", aiRecord(ai))
	}
	return c.reply(message{embeds: []*discordgo.MessageEmbed{e}})
}

// aiRecord is a player's rating and record against the computer.
func aiRecord(p *storage.Profile) string {
	return fmt.Sprintf("%s · %d–%d–%d", showRating(p.Rating), p.Wins, p.Losses, p.Draws)
}

func streak(n int) string {
	switch {
	case n > 0:
		return fmt.Sprintf("%d win%s in a row", n, plural(n))
	case n < 0:
		return fmt.Sprintf("%d loss%s in a row", -n, map[bool]string{true: "", false: "es"}[n == -1])
	}
	return "none"
}

// tallyWords writes a record in words: "2 wins, 1 loss, 0 draws".
func tallyWords(t storage.Tally) string {
	losses := "losses"
	if t.Losses == 1 {
		losses = "loss"
	}
	return fmt.Sprintf("%d win%s, %d %s, %d draw%s", t.Wins, plural(t.Wins), t.Losses, losses, t.Draws, plural(t.Draws))
}

// sparkline draws ratings as a row of bars.
func sparkline(pts []storage.RatingPoint) string {
	bars := []rune("▁▂▃▄▅▆▇█")
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range pts {
		lo, hi = math.Min(lo, p.Rating.Rating), math.Max(hi, p.Rating.Rating)
	}
	var s []rune
	for _, p := range pts {
		i := 0
		if hi > lo {
			i = int(math.Round((p.Rating.Rating - lo) / (hi - lo) * float64(len(bars)-1)))
		}
		s = append(s, bars[i])
	}
	return string(s)
}
