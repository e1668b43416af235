package bot

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/storage"
)

// puzzleTopStart names the top of the puzzle leaderboard in a pager's
// custom ID, where a mark would be.
const puzzleTopStart = "top"

// stats answers /kulami puzzle stats [player]: the player's puzzle
// rating (with what its ± means), puzzles solved of those tried, streak
// and best streak; and the first page of the server's puzzle
// leaderboard (outside the servers, everywhere's), paged with buttons.
func (pz *puzzles) stats(c *interaction, o options) error {
	id, name := target(c, o)
	lang := pz.langs.publicLang(c)
	var embeds []*discordgo.MessageEmbed
	p, err := pz.store.PuzzleProfile(c.ctx, id)
	switch {
	case errors.Is(err, storage.ErrNotFound) && id == c.user().ID:
		embeds = append(embeds, &discordgo.MessageEmbed{Title: lang.T("puzzle.stats_title", "Player", escape(truncate(name, 200))),
			Color: embedColor, Description: lang.T("puzzle.stats_none_yours")})
	case errors.Is(err, storage.ErrNotFound):
		embeds = append(embeds, &discordgo.MessageEmbed{Title: lang.T("puzzle.stats_title", "Player", escape(truncate(name, 200))),
			Color: embedColor, Description: lang.T("puzzle.stats_none", "Player", escape(name))})
	case err != nil:
		return err
	default:
		embeds = append(embeds, &discordgo.MessageEmbed{
			Title: lang.T("puzzle.stats_title", "Player", escape(truncate(name, 200))), Color: embedColor,
			Fields: []*discordgo.MessageEmbedField{
				{Name: lang.T("puzzle.stats_rating"), Value: showRating(p.Rating) + " — " + ratingRange(lang, p.Rating), Inline: false},
				{Name: lang.T("puzzle.stats_solved"), Value: lang.T("puzzle.stats_solved_of", "Solved", p.Solved, "Attempts", p.Attempts), Inline: true},
				{Name: lang.T("puzzle.stats_streak"), Value: fmt.Sprint(p.Streak), Inline: true},
				{Name: lang.T("puzzle.stats_best"), Value: fmt.Sprint(p.BestStreak), Inline: true},
			},
		})
	}
	m, err := pz.leaderboard(c, lang, nil, false, 0)
	if err != nil {
		return err
	}
	m.embeds = append(embeds, m.embeds...)
	return c.reply(m)
}

// topPage answers the buttons of the puzzle leaderboard: the page before
// or after the mark it carries, or the top.
func (pz *puzzles) topPage(c *interaction, id customID) error {
	lang := pz.langs.publicLang(c)
	var from *storage.Mark
	if id.channel != puzzleTopStart {
		mark, err := storage.ParseMark(id.channel)
		if err != nil {
			return refuse("ladder.gone")
		}
		from = &mark
	}
	m, err := pz.leaderboard(c, lang, from, id.action == actPuzzleTopP, id.n)
	if errors.Is(err, storage.ErrNotFound) {
		return refuse("ladder.gone")
	} else if err != nil {
		return err
	}
	return c.update(m)
}

// leaderboard is the page p (from 0) of the puzzle leaderboard of the
// caller's place (c.guild: outside the servers that added the bot, the
// one of everywhere) after the mark from (before it if before is set;
// the top if from is nil), with its buttons.
func (pz *puzzles) leaderboard(c *interaction, lang i18n.Lang, from *storage.Mark, before bool, p int) (message, error) {
	page, total, err := pz.store.PuzzleLeaderboard(c.ctx, c.guild(), from, before, leaderboardSize)
	if err != nil {
		return message{}, err
	}
	if before && len(page) < leaderboardSize {
		// Back at the top: read it as the top, full.
		if page, total, err = pz.store.PuzzleLeaderboard(c.ctx, c.guild(), nil, false, leaderboardSize); err != nil {
			return message{}, err
		}
		p = 0
	}
	e := &discordgo.MessageEmbed{Title: lang.T("puzzle.top_title"), Color: embedColor}
	if c.guild() == everywhere {
		e.Title = lang.T("puzzle.top_title_everywhere")
	}
	if total == 0 || len(page) == 0 {
		e.Description = lang.T("puzzle.top_empty")
		return message{embeds: []*discordgo.MessageEmbed{e}}, nil
	}
	pages := max(1, (total+leaderboardSize-1)/leaderboardSize)
	p = min(p, pages-1)
	lines := make([]string, len(page))
	for i, pr := range page {
		rank := p*leaderboardSize + i + 1
		medal := map[int]string{1: "🥇", 2: "🥈", 3: "🥉"}[rank]
		if medal == "" {
			medal = fmt.Sprintf("`%2d.`", rank)
		}
		lines[i] = fmt.Sprintf("%s **%s** — %s · %s", medal, escape(truncate(pr.Name, 40)), showRating(pr.Rating),
			lang.T("puzzle.stats_solved_of", "Solved", pr.Solved, "Attempts", pr.Attempts))
	}
	e.Description = strings.Join(lines, "\n")
	e.Footer = &discordgo.MessageEmbedFooter{Text: lang.N("puzzle.top_footer", total)}
	if pages > 1 {
		e.Footer.Text = lang.T("puzzle.top_page", "Page", p+1, "Pages", pages) + " · " + e.Footer.Text
	}
	m := message{embeds: []*discordgo.MessageEmbed{e}}
	if pages > 1 {
		prev := customID{action: actPuzzleTopP, channel: storage.MarkOfPuzzles(&page[0]).String(), n: max(p-1, 0)}
		if p <= 1 {
			prev = customID{action: actPuzzleTopN, channel: puzzleTopStart}
		}
		next := customID{action: actPuzzleTopN, channel: storage.MarkOfPuzzles(&page[len(page)-1]).String(), n: p + 1}
		m.components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: lang.T("button.previous"), Style: discordgo.SecondaryButton, Disabled: p <= 0, CustomID: prev.String()},
			discordgo.Button{Label: lang.T("button.next"), Style: discordgo.SecondaryButton, Disabled: p >= pages-1, CustomID: next.String()},
		}}}
	}
	return m, nil
}
