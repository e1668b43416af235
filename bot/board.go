package bot

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/bot/jobs"
	"github.com/kulami/kulami/draw"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
)

// maxOptions is the most options a Discord select menu takes.
const maxOptions = 25

// colorMark shows a colour in text: red and black discs.
var colorMark = [2]string{engine.Red: "🔴", engine.Black: "⚫"}

// views makes the messages that need more than words: the boards, drawn
// within the render bound of the bot's runner, and their final scores.
// It is safe for concurrent use.
type views struct {
	renderer  *draw.Renderer
	runner    *jobs.Runner    // its render classes bound the renders at once
	baseCtx   context.Context // the bot's: cancelled by Close
	finished  FinishedStore   // the ratings of a finished game
	vacations VacationStore   // when a player on vacation returns
	settings  SettingsStore   // whether the guild allows hints
	clock     Clock           // the time a board says a clock is paused at
	log       *slog.Logger
}

// winner is the colour that won g, for its final board; nil while it goes
// on, after a draw and when it counts for nobody (a tournament's forfeit,
// unrated, counts for the tournament: its winner is shown).
func winner(g *storage.Game) *engine.Color {
	r := g.Result()
	if r == nil || r.Draw || !r.Rated() && forfeit(g) != forfeitWon {
		return nil
	}
	return &r.Winner
}

// forfeitKind is what a tournament game's end before a player's first
// move is for the tournament.
type forfeitKind uint8

const (
	noForfeit     forfeitKind = iota // not a tournament's forfeit
	forfeitWon                       // the opponent wins by forfeit
	forfeitDouble                    // neither player of the pairing played: both lose
)

// forfeit says whether g, finished, was forfeited in its tournament (its
// clock ran out before its player's first move), and how.
func forfeit(g *storage.Game) forfeitKind {
	switch r := g.Result(); {
	case r == nil || r.Ending != game.Unstarted || g.Tournament == nil:
		return noForfeit
	case g.Tournament.Double:
		return forfeitDouble
	}
	return forfeitWon
}

// boardMessage is the message that shows game g at position p, in lang:
// the board image, whose turn it is with its deadline, the score so far
// and the menus to play; or, at the end, the result. It pings the player
// to move, or both players at the end.
func (v *views) boardMessage(ctx context.Context, lang i18n.Lang, g *storage.Game) (message, error) {
	return v.drawBoard(ctx, lang, g, jobRender)
}

// drawBoard is boardMessage, its image drawn as a job of class (jobRender,
// or jobEdit for a board drawn again for an edit).
func (v *views) drawBoard(ctx context.Context, lang i18n.Lang, g *storage.Game, class string) (message, error) {
	var png bytes.Buffer
	p := g.Position()
	hints, lk := v.guildLook(ctx, g.GuildID)
	now := v.clock.Now()
	opt := boardImage(lang, g, lk, now)
	if err := v.render(class, func() error { return v.renderer.Render(&png, &p, opt) }); err != nil {
		return message{}, fmt.Errorf("render the board: %w", err)
	}
	m := message{
		file:       &attachment{name: "board.png", contentType: "image/png", data: png.Bytes(), description: altText(lang, g, &p)},
		content:    boardText(lang, g, &p, now, v.returns(ctx, g)),
		components: boardComponents(lang, g, &p, false, hints),
	}
	if answerOnly(g) && !g.Over() {
		m.components = withRefresh(lang, g, m.components)
	}
	if g.Over() {
		if g.Result().Rated() {
			m.embeds = []*discordgo.MessageEmbed{v.scoreEmbed(ctx, lang, g)}
		}
		for _, pl := range g.Players() {
			if !pl.IsAI() {
				m.mentions = append(m.mentions, pl.UserID)
			}
		}
	} else if pl := g.Player(g.ToMove()); !pl.IsAI() {
		m.mentions = []string{pl.UserID}
	}
	return m, nil
}

// boardImage is how the board image of game g is drawn for readers of
// lang, in the look lk, at now: the players' names, the result in plain
// words at the end, and under the footer a note while a clock is stopped.
func boardImage(lang i18n.Lang, g *storage.Game, lk look, now time.Time) draw.Options {
	outcome, reason := outcome(lang, g, playerName, true)
	return draw.Options{Names: names(lang, g), Rules: g.Rules(), Over: g.Over(), Outcome: outcome, Reason: reason, Winner: winner(g),
		Note: imageClockNote(lang, g, now), Text: drawText(lang), Theme: lk.theme, Marbles: lk.marbles}
}

// look is how an image is drawn: for which Discord theme, with which set
// of marbles.
type look struct {
	theme   draw.Theme
	marbles draw.Marbles
}

// guildLook is how a guild's public boards look: whether their menus may
// say what each move does (only where the guild allows hints; a game
// outside a guild has no server to forbid them), the theme they are drawn
// for and their marbles. If the settings cannot be read: no hints, the
// dark theme, the standard marbles.
func (v *views) guildLook(ctx context.Context, guildID string) (hints bool, lk look) {
	if guildID == "" {
		return true, look{}
	}
	s, err := v.settings.GuildSettings(ctx, guildID)
	if err != nil {
		v.log.Warn("cannot read how the guild's boards look", "guild", guildID, "err", err)
		return false, look{}
	}
	return s.Hints, look{theme: themeOf(s.Theme), marbles: marblesOf(s.Marbles)}
}

// ownLook is how an image only userID sees looks: their own theme and
// marbles, each else their guild's.
func (v *views) ownLook(ctx context.Context, guildID, userID string) look {
	_, lk := v.guildLook(ctx, guildID)
	if u, err := v.settings.UserSettings(ctx, userID); err == nil {
		if u.Theme != "" {
			lk.theme = themeOf(u.Theme)
		}
		if u.Marbles != "" {
			lk.marbles = marblesOf(u.Marbles)
		}
	}
	return lk
}

// themeOf reads a stored theme: "light", else dark.
func themeOf(s string) draw.Theme {
	if t, err := draw.ParseTheme(s); err == nil {
		return t
	}
	return draw.Dark
}

// marblesOf reads a stored set of marbles: "colour-blind", else standard.
func marblesOf(s string) draw.Marbles {
	if m, err := draw.ParseMarbles(s); err == nil {
		return m
	}
	return draw.Standard
}

func names(lang i18n.Lang, g *storage.Game) [2]string {
	return [2]string{playerName(lang, g.Player(engine.Red)), playerName(lang, g.Player(engine.Black))}
}

// playerName is the name of p for a reader of lang: a person's own, the
// computer's by its level, in lang (the stored name, "Kulami AI (medium)",
// is English).
func playerName(lang i18n.Lang, p game.Player) string {
	if p.IsAI() {
		return lang.T("ai.name", "Level", lang.T("command.choices.level."+p.AI))
	}
	return p.Name
}

// who is how a player appears in a message to readers of lang: a mention
// for a person (it shows their current name), the name for the computer.
func who(lang i18n.Lang, p game.Player) string {
	if p.IsAI() {
		return "**" + playerName(lang, p) + "**"
	}
	return "<@" + p.UserID + ">"
}

// boardText is the text above a board image, in lang, at now; returns
// are when each player on vacation comes back at the latest (zero if
// unknown).
func boardText(lang i18n.Lang, g *storage.Game, p *engine.Position, now time.Time, returns [2]time.Time) string {
	red, black := g.Player(engine.Red), g.Player(engine.Black)
	lines := []string{lang.T("board.title", "Red", colorMark[engine.Red]+" "+escape(playerName(lang, red)), "Black", colorMark[engine.Black]+" "+escape(playerName(lang, black)),
		"Rules", lang.T(rulesShort[g.Rules()]))}
	if last, prev := p.Last(); last != engine.NoHole {
		mover := g.ToMove().Other()
		named := func(c engine.Color) string { return colorMark[c] + " " + escape(playerName(lang, g.Player(c))) }
		if moves := g.Moves(); moves[len(moves)-1].Planned {
			// The planned reply was played with the move before it: the
			// board shows both.
			lines = append(lines, lang.T("board.last_move", "Move", p.Ply()-1, "Player", named(mover.Other()), "Hole", p.Layout().Cell(prev)),
				lang.T("plan.board_reply", "Move", p.Ply(), "Player", named(mover), "Hole", p.Layout().Cell(last)))
		} else {
			lines = append(lines, lang.T("board.last_move", "Move", p.Ply(), "Player", named(mover), "Hole", p.Layout().Cell(last)))
		}
	}
	if g.Over() {
		outcome, reason := outcome(lang, g, who, false)
		lines = append(lines, lang.T("board.game_over", "Outcome", strings.TrimSpace(outcome+" "+reason)))
		if r := g.Result(); r.Ending == game.Unstarted && forfeit(g) == noForfeit {
			// The player who waited is told too (the outcome names only
			// the one who did not move).
			lines = append(lines, lang.T("board.unstarted_waited", "Player", who(lang, g.Player(r.Winner))))
		}
		if g.Ply() > 0 {
			// Every move: even with the longest names, a full board's
			// text stays within Discord's 2000 characters
			// (TestFinalBoardTextFits).
			lines = append(lines, movesLine(lang, g, 0))
		}
		return strings.Join(lines, "\n")
	}
	c := g.ToMove()
	player := colorMark[c] + " " + who(lang, g.Player(c))
	if d := g.Deadline(); !d.IsZero() {
		lines = append(lines, lang.T("board.your_move_due", "Player", player, "Due", timestamp(d)))
	} else {
		lines = append(lines, lang.T("board.your_move", "Player", player))
	}
	switch clock := g.Clock(); {
	case clock.Whole():
		lines = append(lines, lang.T("move_time.board", "Clock", clockWords(lang, clock), "Player", colorMark[c.Other()]+" "+escape(playerName(lang, g.Player(c.Other()))),
			"Left", lang.Duration(g.TimeLeft(c.Other(), time.Time{}))))
	case clock.Live():
		// A live clock per move (of an earlier release) says so: "5m"
		// typed today is for the whole game.
		lines = append(lines, lang.T("move_time.board_per_move", "Clock", clockWords(lang, clock)))
	}
	lines = append(lines, daysLines(lang, g, now, returns)...)
	if line := cutoffLine(lang, g); line != "" {
		lines = append(lines, line)
	}
	s := p.Score(g.Rules())
	lines = append(lines, lang.T("board.score", "Red", colorMark[engine.Red]+" "+scoreWords(lang, s[engine.Red], g.Rules()),
		"Black", colorMark[engine.Black]+" "+scoreWords(lang, s[engine.Black], g.Rules())))
	if d := g.DrawOffer(); d != nil {
		lines = append(lines, lang.T("board.draw_offered", "Player", escape(playerName(lang, g.Player(d.By)))))
	}
	if g.Ply() > 0 {
		lines = append(lines, movesLine(lang, g, shownMoves))
	}
	return strings.Join(lines, "\n")
}

// shownMoves is how many of the latest moves a board lists.
const shownMoves = 10

// movesLine lists in lang the moves of g so far, numbered, with their
// count: the last n of them after an ellipsis, or all if n is 0.
func movesLine(lang i18n.Lang, g *storage.Game, n int) string {
	moves := g.Moves()
	from := 0
	if n > 0 {
		from = max(0, len(moves)-n)
	}
	parts := make([]string, 0, len(moves)-from+1)
	if from > 0 {
		parts = append(parts, "…")
	}
	for i := from; i < len(moves); i++ {
		parts = append(parts, fmt.Sprintf("%d.%s", i+1, moves[i].Cell))
	}
	return lang.N("board.moves", len(moves), "Moves", strings.Join(parts, " "))
}

// daysLines are the lines of a board that say what stops the clocks of a
// game played over days: a player on vacation (the clock of the player to
// move stopped, with the time it holds) and when they return if returns
// says, the weekend pause and, if it pauses the clock of the player to
// move at now, until when.
func daysLines(lang i18n.Lang, g *storage.Game, now time.Time, returns [2]time.Time) []string {
	var lines []string
	for _, c := range []engine.Color{g.ToMove(), g.ToMove().Other()} {
		if g.AwaySince(c).IsZero() {
			continue
		}
		name, ends := escape(playerName(lang, g.Player(c))), returns[c]
		left, stopped := g.Stopped()
		switch stopped = stopped && c == g.ToMove(); {
		case stopped && ends.IsZero():
			lines = append(lines, "⏸️ "+lang.T("board.stopped", "Player", name, "Left", lang.Duration(left)))
		case stopped:
			lines = append(lines, "⏸️ "+lang.T("board.stopped_until", "Player", name, "Left", lang.Duration(left), "Ends", fullTime(ends)))
		case ends.IsZero():
			lines = append(lines, "🏖️ "+lang.T("board.away", "Player", name))
		default:
			lines = append(lines, "🏖️ "+lang.T("board.away_until", "Player", name, "Ends", fullTime(ends)))
		}
	}
	if until, paused := g.WeekendPause(now); paused {
		lines = append(lines, "⏸️ "+lang.T("board.weekend_paused", "Player", escape(playerName(lang, g.Player(g.ToMove()))), "Until", fullTime(until)))
	}
	if g.Weekends() {
		lines = append(lines, "🛋️ "+lang.T("board.weekends"))
	}
	return lines
}

// cutoffLine is the line of a board that names the game's cutoff (a
// tournament round's deadline) when the deadline it shows is not it: the
// clock of the player to move runs out first, or is stopped. "" for a game
// without one, or when the deadline shown is the cutoff.
func cutoffLine(lang i18n.Lang, g *storage.Game) string {
	if c := g.Cutoff(); !c.IsZero() && !g.Deadline().Equal(c) {
		return "🏆 " + lang.T("board.cutoff", "Due", fullTime(c))
	}
	return ""
}

// imageClockNote is the note under the board image's footer while the
// clock of the player to move is stopped (on vacation) or paused for
// their weekend at now, or the game pauses over weekends; "" for none.
func imageClockNote(lang i18n.Lang, g *storage.Game, now time.Time) string {
	_, paused := g.WeekendPause(now)
	switch _, stopped := g.Stopped(); {
	case g.Over():
		return ""
	case stopped:
		return lang.T("board.image_stopped")
	case paused:
		return lang.T("board.image_weekend_paused")
	case g.Weekends():
		return lang.T("board.image_weekends")
	}
	return ""
}

// returns returns when each player of g who is away comes back at the
// latest (their vacation's end); zero for one who is not away, or whose
// vacation cannot be read then (the board says so without a date).
func (v *views) returns(ctx context.Context, g *storage.Game) [2]time.Time {
	var out [2]time.Time
	for c, p := range g.Players() {
		if g.AwaySince(engine.Color(c)).IsZero() {
			continue
		}
		if vac, err := v.vacations.Vacation(ctx, p.UserID); err == nil && vac.On() {
			out[c] = vac.Ends()
		} else if err != nil {
			v.log.Warn("cannot read a vacation for a board", "user", p.UserID, "err", err)
		}
	}
	return out
}

// rulesShort are the message IDs of the rule sets' short names.
var rulesShort = map[engine.Rules]string{
	engine.Basic: "rules.basic", engine.Area: "rules.area", engine.Lines: "rules.lines", engine.Full: "rules.full",
}

// timestamp shows t in each reader's own time zone and language, relative
// to now ("in 3 days").
func timestamp(t time.Time) string {
	return fmt.Sprintf("<t:%d:R>", t.Unix())
}

// altText describes the board in words, in lang, for those who cannot see
// the image (screen readers read an attachment's description): the
// players, the last two moves, whose turn it is and where they may play,
// or how the game ended, and the score; at most 1024 characters,
// Discord's limit.
func altText(lang i18n.Lang, g *storage.Game, p *engine.Position) string {
	l := p.Layout()
	name := func(c engine.Color) string { return playerName(lang, g.Player(c)) }
	parts := []string{lang.T("alt.board", "Width", l.Width(), "Height", l.Height(), "Rules", lang.T(rulesShort[g.Rules()]),
		"Red", name(engine.Red), "Black", name(engine.Black))}
	if last, prev := p.Last(); last != engine.NoHole {
		mover := p.ToMove().Other()
		parts = append(parts, lang.T("alt.last_move", "Move", p.Ply(), "Player", name(mover), "Hole", l.Cell(last)))
		if prev != engine.NoHole {
			parts = append(parts, lang.T("alt.move_before", "Player", name(mover.Other()), "Hole", l.Cell(prev)))
		}
	}
	s := p.Score(g.Rules())
	if g.Over() {
		result, reason := outcome(lang, g, playerName, true)
		parts = append(parts, lang.T("alt.game_over", "Outcome", strings.TrimSpace(result+" "+reason)))
	} else {
		parts = append(parts, lang.T("alt.to_move", "Player", name(g.ToMove()), "Holes", legalList(lang, p)))
	}
	parts = append(parts, lang.T("alt.score", "Red", name(engine.Red), "RedScore", scoreWords(lang, s[engine.Red], g.Rules()),
		"Black", name(engine.Black), "BlackScore", scoreWords(lang, s[engine.Black], g.Rules())))
	return truncate(strings.Join(parts, " "), 1024)
}

// scoreWords writes a player's score so far in lang: the total, and under
// the rule sets with bonuses what it is made of, each part named before
// its points ("7 (panels 5 + area 2)"), so that no count needs a plural.
func scoreWords(lang i18n.Lang, s engine.Breakdown, rules engine.Rules) string {
	if !rules.CountsArea() && !rules.CountsLines() {
		return lang.Number(s.Total)
	}
	parts := []string{lang.T("score.panels", "Points", s.Panels)}
	if rules.CountsArea() {
		parts = append(parts, lang.T("score.area", "Points", s.Area))
	}
	if rules.CountsLines() {
		parts = append(parts, lang.T("score.lines", "Points", s.Lines))
	}
	return lang.T("score.parts", "Total", s.Total, "Parts", strings.Join(parts, " + "))
}

// naming is how a message names a player to readers of lang: playerName
// (a plain name) or who (a mention for a person).
type naming func(lang i18n.Lang, p game.Player) string

// outcome says in lang how a finished game ended, naming the players by
// named: the result, and for a game played out on the board why it ended
// there (for the other endings the result says it). plain words it for
// an image or an attachment's description, without Markdown.
func outcome(lang i18n.Lang, g *storage.Game, named naming, plain bool) (result, reason string) {
	r := g.Result()
	if r == nil {
		return "", ""
	}
	say := lang.T
	if plain {
		say = lang.Plain
	}
	name := func(c engine.Color) string { return named(lang, g.Player(c)) }
	w, l := r.Winner, r.Winner.Other()
	switch {
	case r.Ending == game.Aborted:
		return say("outcome.aborted"), ""
	case forfeit(g) == forfeitDouble:
		return say("outcome.double_forfeit", "Red", name(engine.Red), "Black", name(engine.Black)), ""
	case forfeit(g) == forfeitWon:
		return say("outcome.forfeit", "Winner", name(w), "Loser", name(l)), ""
	case r.Ending == game.Unstarted:
		return say("outcome.unstarted", "Player", name(l)), ""
	case r.Ending == game.Abandoned:
		return say("outcome.abandoned"), ""
	case r.Ending == game.DrawAgreed:
		return say("outcome.draw_agreed"), ""
	case r.Ending == game.Adjudicated && r.Draw:
		return say("outcome.adjudicated_draw"), ""
	case r.Ending == game.Adjudicated:
		return say("outcome.adjudicated", "Winner", name(w), "Loser", name(l)), ""
	case r.Ending == game.Resigned:
		return say("outcome.resigned", "Loser", name(l), "Winner", name(w)), ""
	case r.Ending == game.TimedOut && r.Claimed:
		return say("claim.outcome", "Loser", name(l), "Winner", name(w)), ""
	case r.Ending == game.TimedOut:
		return say("outcome.timed_out", "Loser", name(l), "Winner", name(w)), ""
	case r.Draw:
		return say("outcome.draw", "Red", r.Score[engine.Red].Total, "Black", r.Score[engine.Black].Total), endReason(say, g, name)
	}
	return say("outcome.wins", "Winner", name(w), "Points", r.Score[w].Total, "Against", r.Score[l].Total, "Loser", name(l)), endReason(say, g, name)
}

// endReason says in words of say why a game played out on the board
// ended (RULES.md): the player to move had no legal hole, or every marble
// was placed.
func endReason(say func(id string, args ...any) string, g *storage.Game, name func(engine.Color) string) string {
	if g.Blocked() {
		return say("outcome.no_hole", "Player", name(g.ToMove()), "Move", g.Ply())
	}
	return say("outcome.all_placed", "Marbles", engine.MaxPly)
}

// scoreEmbed is the score breakdown of a finished, rated game, with the
// players' new ratings, in lang.
func (v *views) scoreEmbed(ctx context.Context, lang i18n.Lang, g *storage.Game) *discordgo.MessageEmbed {
	e := &discordgo.MessageEmbed{Title: lang.T("score.final"), Color: embedColor}
	r := g.Result()
	if f, err := v.finished.FinishedGame(ctx, g.GuildID, g.ID); err == nil {
		e.Footer = &discordgo.MessageEmbedFooter{Text: ratingLine(lang, g, f.Ratings)}
	} else {
		v.log.Warn("cannot read the ratings of a finished game", "game", g.ID, "err", err)
	}
	for _, c := range []engine.Color{engine.Red, engine.Black} {
		s := r.Score[c]
		v := lang.T("score.final_panels", "Points", s.Panels)
		if g.Rules().CountsArea() {
			v += "\n" + lang.T("score.final_area", "Points", s.Area)
		}
		if g.Rules().CountsLines() {
			v += "\n" + lang.T("score.final_lines", "Points", s.Lines)
		}
		v += "\n" + lang.T("score.final_total", "Points", s.Total)
		e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: colorMark[c] + " " + truncate(playerName(lang, g.Player(c)), 200), Value: v, Inline: true})
	}
	return e
}

// boardComponents are the menus of the legal holes and (from the second
// board on) the Resign button of a board, in lang, disabled once the board
// is out of date; at the end, the buttons of gameOverComponents. The
// options say what each move does (moveHint) only if hints are allowed.
func boardComponents(lang i18n.Lang, g *storage.Game, p *engine.Position, disabled, hints bool) []discordgo.MessageComponent {
	if g.Over() {
		return gameOverComponents(lang, g)
	}
	rows := holeMenus(lang, p, hints, disabled, func(part int) string {
		return customID{action: actMove, channel: g.ChannelID, id: g.ID, n: g.Ply(), part: part}.String()
	})
	if g.Ply() == 0 {
		// The first board's menus take three rows already, and nobody
		// resigns before a marble is placed (/kulami abort calls the game
		// off, /kulami resign is still there): one row less to scroll.
		return rows
	}
	buttons := []discordgo.MessageComponent{discordgo.Button{
		Label:    lang.T("button.resign"),
		Style:    discordgo.DangerButton,
		CustomID: customID{action: actResign, channel: g.ChannelID, id: g.ID, n: g.Ply()}.String(),
		Disabled: disabled,
	}}
	if !g.Player(g.ToMove()).IsAI() && !g.Player(g.ToMove().Other()).IsAI() {
		// For the player who just moved: plan their replies, and give
		// their opponent more time if the game has a clock.
		if g.MoveTime() > 0 {
			buttons = append(buttons, discordgo.Button{Label: lang.T("give.button"), Style: discordgo.SecondaryButton,
				CustomID: customID{action: actGiveTime, channel: g.ChannelID, id: g.ID, n: g.Ply()}.String(), Disabled: disabled})
		}
		buttons = append(buttons, discordgo.Button{Label: lang.T("plan.button"), Style: discordgo.SecondaryButton,
			CustomID: customID{action: actPlan, channel: g.ChannelID, id: g.ID, n: g.Ply()}.String(), Disabled: disabled})
	}
	return append(rows, discordgo.ActionsRow{Components: buttons})
}

// holeMenus are the select menus of the legal holes of p, by row then
// column, in as few menus of at most maxOptions as they take, each named
// by the rows it holds; id gives the custom ID of menu part. With hints,
// each option says what the move does.
func holeMenus(lang i18n.Lang, p *engine.Position, hints, disabled bool, id func(part int) string) []discordgo.MessageComponent {
	l := p.Layout()
	holes := slices.Collect(p.Legal().All())
	slices.SortFunc(holes, func(a, b engine.Hole) int { return int(l.Cell(a)) - int(l.Cell(b)) }) // by row, then column
	var rows []discordgo.MessageComponent
	chunks := (len(holes) + maxOptions - 1) / maxOptions
	for k := 0; k < chunks; k++ {
		part := holes[k*len(holes)/chunks : (k+1)*len(holes)/chunks]
		opts := make([]discordgo.SelectMenuOption, len(part))
		for j, h := range part {
			c := l.Cell(h).String()
			opts[j] = discordgo.SelectMenuOption{Label: c, Value: c}
			if hints {
				opts[j].Description = moveHint(lang, p, h)
			}
		}
		placeholder := lang.N("menu.holes", len(part))
		if chunks > 1 {
			first, last := l.Cell(part[0]), l.Cell(part[len(part)-1])
			from := k > 0 && l.Cell(holes[k*len(holes)/chunks-1]).Row() == first.Row() // the row began in the menu before
			switch {
			case first.Row() == last.Row() && from:
				placeholder = lang.T("menu.row_from", "Row", first.Row()+1, "From", first)
			case first.Row() == last.Row():
				placeholder = lang.T("menu.row", "Row", first.Row()+1)
			case from:
				placeholder = lang.T("menu.rows_from", "First", first.Row()+1, "Last", last.Row()+1, "From", first)
			default:
				placeholder = lang.T("menu.rows", "First", first.Row()+1, "Last", last.Row()+1)
			}
		}
		rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{
			CustomID:    id(k),
			Placeholder: placeholder,
			Options:     opts,
			Disabled:    disabled,
			MaxValues:   1,
		}}})
	}
	return rows
}

// moveHint says in lang what placing the next marble at h in p does at
// once, for the player to move (at most 100 characters, Discord's limit
// for an option's description): the panel it contests, who would lead
// there, and how many holes it leaves the opponent.
func moveHint(lang i18n.Lang, p *engine.Position, h engine.Hole) string {
	l := p.Layout()
	me := p.ToMove()
	next := *p
	next.Apply(h)
	panel := l.PanelHoles(l.PanelOf(h))
	mine, theirs := (next.Stones(me) & panel).Len(), (next.Stones(me.Other()) & panel).Len()
	lead := lang.T("hint.tied")
	switch {
	case mine > theirs:
		lead = lang.T("hint.you_lead")
	case theirs > mine:
		lead = lang.T("hint.they_lead")
	}
	s := lang.T("hint.panel", "Holes", panel.Len(), "Mine", mine, "Theirs", theirs, "Lead", lead)
	if next.IsOver() {
		return truncate(s+" · "+lang.T("hint.ends_game"), 100)
	}
	return truncate(s+" · "+lang.N("hint.leaves", next.Legal().Len()), 100)
}

// escape keeps Discord markdown in a name from formatting the message.
func escape(s string) string {
	return markdown.Replace(truncate(s, 64))
}

// markdown escapes what Discord would read as formatting in a name:
// emphasis, code, spoilers, quotes, masked links ([x](url)), headings and
// subtext (# and -# at a line's start), mentions of channels (<#id>), and
// @ (no ping, even where mentions are allowed).
var markdown = strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "~", `\~`, "`", "\\`", "|", `\|`, ">", `\>`,
	"<", `\<`, "[", `\[`, "]", `\]`, "#", `\#`, "@", "@\u200b")

// truncate cuts s to at most n runes, with an ellipsis if it was longer.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
