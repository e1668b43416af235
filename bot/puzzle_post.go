package bot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/puzzle"
	"github.com/kulami/kulami/storage"
)

// nextDay returns the start of the UTC day after now's: when the next
// daily puzzle is posted.
func nextDay(now time.Time) time.Time {
	y, m, d := now.UTC().Date()
	return time.Date(y, m, d+1, 0, 0, 0, 0, time.UTC)
}

// postDailies posts the daily puzzle of now's UTC day in every guild that
// chose a puzzle channel and has not had it: a new message with the
// board and a Solve button, which names how many solved the day before's
// and the first three. Each post is claimed in a transaction first
// (storage.Core.ClaimDailyPost), so it goes out once across restarts and
// across bots sharing the store; a post that fails after its claim is
// logged and not posted again. The bot looks at the guilds once a day
// (and again at every call while something failed), and again when a
// server picks a channel (forgetDay). It reports whether something
// failed, which it logs with logFailure. A day when no puzzle is stored
// yet counts as done: the load of the set calls forgetDay.
func (pz *puzzles) postDailies(ctx context.Context, now time.Time, logFailure func(ctx context.Context, msg string, args ...any)) bool {
	day := puzzle.Day(now)
	seen := pz.postedDay.Load()
	if seen != nil && *seen == day {
		return false
	}
	guilds, err := pz.store.PuzzleChannels(ctx)
	if err != nil {
		logFailure(ctx, "cannot read the puzzle channels", "err", err)
		return true
	}
	failed := false
	for _, g := range guilds {
		err := pz.postDaily(ctx, g.GuildID, g.Settings.PuzzleChannel, day, now)
		if err != nil && !errors.Is(err, storage.ErrNotFound) { // not found: no puzzle stored yet, and load calls forgetDay
			logFailure(ctx, "cannot post the daily puzzle", "guild", g.GuildID, "day", day, "err", err)
			failed = true
		}
	}
	if !failed {
		pz.postedDay.CompareAndSwap(seen, &day) // unless forgetDay came meanwhile
	}
	return failed
}

// forgetDay makes the next postDailies look at every guild again: a
// server chose a puzzle channel, whose first post is today's.
func (pz *puzzles) forgetDay() {
	none := ""
	pz.postedDay.Store(&none)
	pz.wake.poke()
}

// postDaily posts the daily puzzle of day in channel of the guild, if
// this call claims the post; an error wrapping storage.ErrNotFound if no
// puzzle can be the day's.
func (pz *puzzles) postDaily(ctx context.Context, guildID, channel, day string, now time.Time) error {
	ctx, cancel := context.WithTimeout(ctx, dueWithin)
	defer cancel()
	d, err := pz.store.DailyPuzzle(ctx, day) // ErrNotFound: no puzzle stored
	if err != nil {
		return err
	}
	mine, err := pz.store.ClaimDailyPost(ctx, guildID, day, channel)
	if err != nil || !mine {
		return err
	}
	m, err := pz.dailyMessage(ctx, guildID, d, puzzle.Day(now.AddDate(0, 0, -1)))
	if err != nil {
		return err
	}
	sent, err := pz.out.send(ctx, channel, m)
	if err != nil {
		pz.log.Warn("the daily puzzle could not be posted; it is not posted again today", "guild", guildID, "channel", channel, "day", day, "err", err)
		return nil
	}
	return pz.store.NoteDailyPost(ctx, guildID, day, sent.ID)
}

// dailyMessage is the post of the daily puzzle d in the guild, in its
// language and theme: the board, what to find, yesterday's solvers, and
// the Solve button.
func (pz *puzzles) dailyMessage(ctx context.Context, guildID string, d *storage.DailyPuzzle, yesterday string) (message, error) {
	lang := pz.langs.guildLang(ctx, guildID)
	e, err := pz.store.Puzzle(ctx, d.PuzzleID)
	if err != nil {
		return message{}, err
	}
	p, err := pz.parse(e)
	if err != nil {
		return message{}, err
	}
	pos, err := p.Position()
	if err != nil {
		return message{}, err
	}
	solver, _ := p.Solver()
	lines := []string{
		"🧩 " + lang.T("puzzle.daily_title", "Day", d.Day, "Rating", puzzleRating(e.Rating)),
		lang.T("puzzle.goal_"+string(p.Goal), "Color", colorMark[solver]+" "+lang.T("color."+strings.ToLower(solver.String()))),
		lang.T("puzzle.daily_private"),
	}
	// Yesterday's solvers, if this server had yesterday's puzzle (its
	// first post has none to speak of).
	if post, err := pz.store.DailyPost(ctx, guildID, yesterday); err == nil && post.MessageID != "" {
		if y, err := pz.store.DailyPuzzle(ctx, yesterday); err == nil {
			lines = append(lines, solversLine(lang, y))
		}
	}
	_, lk := pz.views.guildLook(ctx, guildID)
	var names [2]string
	names[solver], names[solver.Other()] = lang.T("puzzle.solver"), lang.T("puzzle.defence")
	var png bytes.Buffer
	opt := drawPuzzle(lang, p, names, lk)
	if err := pz.views.render(jobRender, func() error { return pz.views.renderer.Render(&png, &pos, opt) }); err != nil {
		return message{}, fmt.Errorf("render the daily puzzle: %w", err)
	}
	return message{content: strings.Join(lines, "\n"),
		file: &attachment{name: "puzzle.png", contentType: "image/png", data: png.Bytes(), description: puzzleAlt(lang, &pos, p, names)},
		components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{
			Label: lang.T("puzzle.solve_button"), Style: discordgo.PrimaryButton, CustomID: customID{action: actPuzzleSolve, channel: d.Day}.String()}}}},
	}, nil
}

// solversLine says in lang how many solved the daily puzzle d, and who
// first.
func solversLine(lang i18n.Lang, d *storage.DailyPuzzle) string {
	if d.Solved == 0 {
		return lang.T("puzzle.yesterday_none")
	}
	names := make([]string, len(d.First))
	for i, s := range d.First {
		names[i] = "**" + escape(truncate(s.Name, 40)) + "**"
	}
	return lang.N("puzzle.yesterday", d.Solved, "First", strings.Join(names, ", "))
}

// puzzleAlt describes the board of a puzzle for screen readers.
func puzzleAlt(lang i18n.Lang, pos *engine.Position, p *puzzle.Puzzle, names [2]string) string {
	l := pos.Layout()
	return lang.T("alt.board", "Width", l.Width(), "Height", l.Height(), "Rules", lang.T(rulesShort[p.Record.Rules]),
		"Red", names[engine.Red], "Black", names[engine.Black])
}

// puzzleChannel checks that the bot can post in the channel chosen for
// the daily puzzle, by posting there what it will do, in the server's
// language, and returns the refusal to answer if it cannot.
func (pf *preferences) puzzleChannel(c *interaction, channelID string) error {
	return pf.tryChannel(c, channelID, "🧩 "+pf.langs.publicLang(c).T("puzzle.channel_chosen"), "puzzle.cannot_post")
}
