package bot

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/bot/i18n"
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
// mark while it is provisional (few games, high deviation). Ratings are
// written without a thousands separator in every language, as rating lists
// write them.
func showRating(r rating.Rating) string {
	s := fmt.Sprintf("%.0f", r.Rating)
	if rating.Provisional(r) {
		s += "?"
	}
	return s
}

// ratingRange says in lang what the ± of a rating means: the player's
// strength is within two deviations of it, 95 times in 100.
func ratingRange(lang i18n.Lang, r rating.Rating) string {
	return lang.T("stats.range", "Low", fmt.Sprintf("%.0f", r.Rating-2*r.RD), "High", fmt.Sprintf("%.0f", r.Rating+2*r.RD))
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

// ratingLine tells in lang how a game moved both players' ratings, and
// why by so much if a rating was provisional (a first game moves it by
// well over a hundred points, whatever the score).
func ratingLine(lang i18n.Lang, g *storage.Game, ch [2]storage.RatingChange) string {
	var parts []string
	provisional := false
	for c, r := range ch {
		if r.After == (rating.Rating{}) {
			return ""
		}
		d := r.After.Rating - r.Before.Rating
		parts = append(parts, fmt.Sprintf("%s %s → %s (%s)", truncate(playerName(lang, g.Player(engine.Color(c))), 40), showRating(r.Before), showRating(r.After), ratingDiff(d)))
		provisional = provisional || rating.Provisional(r.Before)
	}
	key := "ladder.ratings"
	if g.Ladder() == storage.AI {
		key = "ladder.ratings_ai"
	}
	line := lang.T(key, "Changes", strings.Join(parts, " · "))
	if provisional {
		line += "\n" + lang.N("ladder.provisional_change", rating.GamesToSettle(rating.New()))
	}
	return line
}

// ladderOf reads the ladder option: people (default) or the computer.
func ladderOf(o options) storage.Ladder {
	// "everywhere" is the ladder between people of the games outside the
	// servers (see board.everywhere).
	if o.str("ladder") == "ai" {
		return storage.AI
	}
	return storage.Human
}

// records handles what the finished games add up to: /kulami
// leaderboard and its pages, stats, history, export and games. It is safe
// for concurrent use.
type records struct {
	store interface {
		GameStore
		FinishedStore
		LadderStore
	}
	players PlayerGamesStore // a player's games everywhere (/kulami games mine:true)
	langs   *locales
	clock   Clock // what the current season is
}

// leaderboardCommand shows the first (or the chosen) page of a ladder,
// all-time or of a season.
func (rs *records) leaderboardCommand(c *interaction, o options) error {
	season, err := seasonOption(o.str("season"), rs.clock.Now())
	if err != nil {
		return err
	}
	b := board{ladder: ladderOf(o), season: season, everywhere: o.str("ladder") == "everywhere" || c.guild() == everywhere}
	m, err := rs.leaderboard(c.ctx, rs.langs.publicLang(c), b.guild(c), b, o.int("page", 1)-1)
	if err != nil {
		return err
	}
	return c.reply(m)
}

// lastPage is the highest page (from 0) whose offset an int holds: a
// pager writes pages of real boards only, so a button beyond it is forged
// or garbled and refused like a stale one, not read as a store error.
const lastPage = math.MaxInt/leaderboardSize - 1

// leaderboardPage shows another page, from the Previous and Next buttons
// that name it by number: a leaderboard's first page, and the buttons of
// leaderboards posted before the buttons carried marks.
func (rs *records) leaderboardPage(c *interaction, id customID) error {
	if id.n > lastPage {
		return refuse("ladder.gone")
	}
	m, err := rs.leaderboard(c.ctx, rs.langs.publicLang(c), id.channel, boardOf(id.id), id.n)
	if err != nil {
		return err
	}
	return c.update(m)
}

// leaderboardStep shows the page after (Next) or before (Previous) the
// mark that a leaderboard's button carries, page id.n (from 0): read from
// the ranks at the mark, however far down the ladder. A mark that is none,
// or whose player is not on the board, is stale or forged. If the ranks
// moved so that nothing is left after the mark, or less than a page
// before it, the last or the first page is shown.
func (rs *records) leaderboardStep(c *interaction, id customID) error {
	b, lang := boardOf(id.id), rs.langs.publicLang(c)
	guildID := b.guild(c)
	mark, err := storage.ParseMark(id.channel)
	if err != nil || !b.valid() {
		return refuse("ladder.gone")
	}
	before := id.action == actLeadersPrev
	page, total, err := rs.store.LeaderboardFrom(c.ctx, guildID, b.season, b.ladder, mark, before, leaderboardSize)
	if errors.Is(err, storage.ErrNotFound) {
		return refuse("ladder.gone")
	} else if err != nil {
		return err
	}
	pages := max(1, (total+leaderboardSize-1)/leaderboardSize)
	p := min(id.n, pages-1)
	if len(page) == 0 || before && len(page) < leaderboardSize {
		if before {
			p = 0
		}
		m, err := rs.leaderboard(c.ctx, lang, guildID, b, p)
		if err != nil {
			return err
		}
		return c.update(m)
	}
	return c.update(leaderboardMessage(lang, guildID, b, page, total, p, pages))
}

// board is a leaderboard of a guild: a ladder, all-time or of a season.
type board struct {
	ladder storage.Ladder
	season storage.Season // zero: all-time
	// everywhere: the ladder of the games outside the servers that
	// added the bot (see everywhere), wherever it is asked for.
	everywhere bool
}

// everywhereBit marks the everywhere ladder in a board's ID.
const everywhereBit = 0x80

// id returns b as the ID of a pager's custom ID: the ladder in the low
// seven bits, everywhereBit, the season above them (so an all-time
// board's ID is its ladder's, as before there were seasons).
func (b board) id() uint64 {
	id := uint64(b.season)<<8 | uint64(b.ladder)
	if b.everywhere {
		id |= everywhereBit
	}
	return id
}

// boardOf is the inverse of board.id.
func boardOf(id uint64) board {
	return board{ladder: storage.Ladder(id & 0x7f), season: storage.Season(min(id>>8, 1<<31-1)), everywhere: id&everywhereBit != 0}
}

// guild returns the guild key b is read from when c asks for it: the
// everywhere ladder's, else c's own place's.
func (b board) guild(c *interaction) string {
	if b.everywhere {
		return everywhere
	}
	return c.guild()
}

// valid tells whether b is a board: a ladder, all-time or of a season.
func (b board) valid() bool {
	return (b.ladder == storage.Human || b.ladder == storage.AI) && (b.season == 0 || b.season.Valid())
}

// page reads page p (from 0) of b in the guild.
func (rs *records) page(ctx context.Context, guildID string, b board, p int) ([]storage.Profile, int, error) {
	if b.season != 0 {
		return rs.store.SeasonLeaderboard(ctx, guildID, b.season, b.ladder, p*leaderboardSize, leaderboardSize)
	}
	return rs.store.Leaderboard(ctx, guildID, b.ladder, p*leaderboardSize, leaderboardSize)
}

// leaderboard is page p (from 0) of a board of a guild.
func (rs *records) leaderboard(ctx context.Context, lang i18n.Lang, guildID string, b board, p int) (message, error) {
	if !b.valid() {
		return message{}, refuse("ladder.gone")
	}
	p = max(p, 0)
	page, total, err := rs.page(ctx, guildID, b, p)
	if err != nil {
		return message{}, err
	}
	pages := max(1, (total+leaderboardSize-1)/leaderboardSize)
	if p >= pages && total > 0 {
		p = pages - 1
		if page, total, err = rs.page(ctx, guildID, b, p); err != nil {
			return message{}, err
		}
	}
	return leaderboardMessage(lang, guildID, b, page, total, p, pages), nil
}

// leaderboardMessage is page p (from 0) of pages of a board of a guild,
// in lang: the profiles of page, of total on the board.
func leaderboardMessage(lang i18n.Lang, guildID string, b board, page []storage.Profile, total, p, pages int) message {
	title := lang.T("ladder.title")
	if b.ladder == storage.AI {
		title = lang.T("ladder.title_ai")
	}
	if b.everywhere {
		title = lang.T("ladder.title_everywhere")
	}
	if b.season != 0 {
		title += " · " + seasonName(lang, b.season)
	}
	e := &discordgo.MessageEmbed{Title: title, Color: embedColor}
	if total == 0 {
		e.Description = lang.T("ladder.empty")
		if b.season != 0 {
			e.Description = lang.T("season.empty")
		}
		return message{embeds: []*discordgo.MessageEmbed{e}}
	}
	e.Description = strings.Join(rankLines(lang, page, p*leaderboardSize), "\n")
	e.Footer = &discordgo.MessageEmbedFooter{Text: lang.N("ladder.footer", total, "Page", p+1, "Pages", pages)}
	m := message{embeds: []*discordgo.MessageEmbed{e}}
	if pages > 1 {
		m.components = leaderboardButtons(lang, guildID, b, page, p, pages)
	}
	return m
}

// leaderboardButtons returns the Previous and Next buttons of page p
// (from 0) of pages of a board of a guild, which shows page: they carry
// the marks of its first and last profiles, from which the store reads
// the page before or after (LeaderboardFrom). Previous to the first page
// names it by number, as does a button whose mark would not read back (a
// profile ID too long for a custom ID).
func leaderboardButtons(lang i18n.Lang, guildID string, b board, page []storage.Profile, p, pages int) []discordgo.MessageComponent {
	numbered := func(p int) string { return customID{action: actLeaders, channel: guildID, id: b.id(), n: p}.String() }
	marked := func(action string, p int, pr *storage.Profile) string {
		mark := storage.MarkOf(pr).String()
		if _, err := storage.ParseMark(mark); err != nil || p == 0 {
			return numbered(p)
		}
		return customID{action: action, channel: mark, id: b.id(), n: p}.String()
	}
	prev, next := numbered(max(p-1, 0)), numbered(p+1)
	if len(page) > 0 {
		prev, next = marked(actLeadersPrev, max(p-1, 0), &page[0]), marked(actLeadersNext, p+1, &page[len(page)-1])
	}
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: lang.T("button.previous"), Style: discordgo.SecondaryButton, Disabled: p <= 0, CustomID: prev},
		discordgo.Button{Label: lang.T("button.next"), Style: discordgo.SecondaryButton, Disabled: p >= pages-1, CustomID: next},
	}}}
}

// rankLines writes the profiles of a leaderboard, the first of rank
// first+1, one a line: medal or rank, name, rating and record.
func rankLines(lang i18n.Lang, page []storage.Profile, first int) []string {
	var lines []string
	for i, pr := range page {
		rank := first + i + 1
		medal := map[int]string{1: "🥇", 2: "🥈", 3: "🥉"}[rank]
		if medal == "" {
			medal = fmt.Sprintf("`%2d.`", rank)
		}
		lines = append(lines, fmt.Sprintf("%s **%s** — %s · %s", medal, escape(playerName(lang, storage.Player(pr.UserID, pr.Name))), showRating(pr.Rating), record(lang, pr.Tally)))
	}
	return lines
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
func (rs *records) statsCommand(c *interaction, o options) error {
	id, name := target(c, o)
	lang := rs.langs.publicLang(c)
	pr, err := rs.store.Profile(c.ctx, c.guild(), id, storage.Human)
	if errors.Is(err, storage.ErrNotFound) {
		if ai, err := rs.store.Profile(c.ctx, c.guild(), id, storage.AI); err == nil {
			// Only games against the computer: show those, not "no games".
			return c.reply(message{embeds: []*discordgo.MessageEmbed{{
				Title: lang.T("stats.title", "Player", truncate(ai.Name, 200)), Color: embedColor,
				Description: lang.T("stats.no_human_games"),
				Fields:      []*discordgo.MessageEmbedField{{Name: lang.T("stats.against_ai"), Value: aiRecord(lang, ai), Inline: true}},
			}}})
		}
		if id == c.user().ID {
			return refuse(c.placed("stats.none_yours"))
		}
		return refuse(c.placed("stats.none"), "Player", escape(name))
	} else if err != nil {
		return err
	}
	trend, err := rs.store.RatingTrend(c.ctx, c.guild(), id, storage.Human, trendGames)
	if err != nil {
		return err
	}
	e := &discordgo.MessageEmbed{Title: lang.T("stats.title", "Player", truncate(pr.Name, 200)), Color: embedColor}
	field := func(name, value string) {
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: name, Value: value, Inline: true})
	}
	r := "**" + showRating(pr.Rating) + "**\n" + ratingRange(lang, pr.Rating)
	if rating.Provisional(pr.Rating) {
		r += "\n" + lang.N("stats.provisional", rating.GamesToSettle(pr.Rating))
	}
	field(lang.T("stats.rating"), r)
	field(lang.T("stats.record"), tallyWords(lang, pr.Tally)+"\n"+lang.N("stats.games", pr.Games()))
	field(lang.T("stats.streak"), streak(lang, pr.Streak))
	if len(trend) > 1 {
		first, last := trend[0].Rating.Rating, trend[len(trend)-1].Rating.Rating
		field(lang.N("stats.trend", len(trend)), fmt.Sprintf("%s\n%.0f → %.0f (%s)", sparkline(trend), first, last, ratingDiff(last-first)))
	}
	if w := pr.BestWin; w != nil {
		field(lang.T("stats.best_win"), lang.T("stats.best_win_value", "Opponent", escape(w.OpponentName), "Rating", fmt.Sprintf("%.0f", w.OpponentRating), "Game", w.GameID))
	}
	if id != c.user().ID {
		t, err := rs.store.HeadToHead(c.ctx, c.guild(), c.user().ID, id)
		if err != nil {
			return err
		}
		if t.Games() > 0 {
			field(lang.T("stats.head_to_head"), tallyWords(lang, t))
		} else {
			field(lang.T("stats.head_to_head"), lang.T("stats.no_games"))
		}
	}
	if ai, err := rs.store.Profile(c.ctx, c.guild(), id, storage.AI); err == nil {
		field(lang.T("stats.against_ai"), aiRecord(lang, ai))
	}
	return c.reply(message{embeds: []*discordgo.MessageEmbed{e}})
}

// aiRecord is a player's rating and record against the computer.
func aiRecord(lang i18n.Lang, p *storage.Profile) string {
	return showRating(p.Rating) + " · " + record(lang, p.Tally)
}

// record writes a record in figures: wins–losses–draws.
func record(lang i18n.Lang, t storage.Tally) string {
	return lang.T("ladder.record", "Wins", t.Wins, "Losses", t.Losses, "Draws", t.Draws)
}

// streak writes in lang a run of wins (n > 0) or losses (n < 0).
func streak(lang i18n.Lang, n int) string {
	switch {
	case n > 0:
		return lang.N("stats.win_streak", n)
	case n < 0:
		return lang.N("stats.loss_streak", -n)
	}
	return lang.T("stats.no_streak")
}

// tallyWords writes a record in words: "2 wins, 1 loss, 0 draws".
func tallyWords(lang i18n.Lang, t storage.Tally) string {
	return lang.N("stats.wins", t.Wins) + ", " + lang.N("stats.losses", t.Losses) + ", " + lang.N("stats.draws", t.Draws)
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
