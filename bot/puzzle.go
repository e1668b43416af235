package bot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/draw"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/puzzle"
	"github.com/kulami/kulami/engine/rating"
	"github.com/kulami/kulami/storage"
)

// puzzles handles the group /kulami puzzle (next, daily, stats), the
// moves of a puzzle under way, the Solve button of a daily post and the
// pages of the puzzle leaderboard; and posts the daily puzzle where a
// server asked (puzzle_post.go). A puzzle is solved in a message only its
// player sees; the attempt under way is stored (storage.PuzzleTry), so a
// restart loses nothing, and each menu's custom ID names the puzzle, the
// player and the step, so a stale or forged click is told apart. It is
// safe for concurrent use.
type puzzles struct {
	store PuzzleStore
	links RoleLinks // told of the puzzles that counted
	views *views
	clock Clock
	log   *slog.Logger
	langs *locales
	out   *outbound
	wake  wakeup
	// set is the puzzle set to load at start (Options.Puzzles); nil for
	// none.
	set func() ([]puzzle.Puzzle, error)
	// parsed are the puzzles read from the store, by ID and hash.
	parsed sync.Map
	// postedDay is the UTC day (puzzle.Day) whose daily post this bot has
	// dealt with in every guild (postDailies); forgetDay replaces it.
	postedDay atomic.Pointer[string]
}

// The puzzle components' actions.
const (
	actPuzzleMove  = "pz-move"  // a hole of a puzzle under way: the puzzle, the player, the step
	actPuzzleNext  = "pz-next"  // the player's next puzzle, after one ended
	actPuzzleSolve = "pz-solve" // the Solve button of a daily post: the day
	actPuzzleTopN  = "pz-top-next"
	actPuzzleTopP  = "pz-top-prev"
)

// errNoPuzzles refuses a puzzle when none is stored: the set failed to
// load (logged at start).
var errNoPuzzles = refuse("puzzle.none")

// load stores the puzzle set, if any: a set that fails to load is logged,
// naming its file and line (engine/puzzle's errors do), and the bot runs
// on without it (the puzzles stored before, if any, still serve). Once
// loaded, the daily posts look at the guilds again (forgetDay): a post
// that found no puzzle yet goes out then.
func (pz *puzzles) load(ctx context.Context) {
	if pz.set == nil {
		return
	}
	fail := func(msg string, err error) {
		level := slog.LevelError
		if ctx.Err() != nil {
			level = slog.LevelWarn // stopping: the next start loads it
		}
		pz.log.Log(ctx, level, msg, "err", err)
	}
	ps, err := pz.set()
	if err != nil {
		fail("the puzzle set cannot be loaded; the bot runs without it", err)
		return
	}
	js := make([]puzzle.JSON, len(ps))
	for i := range ps {
		js[i] = ps[i].ToJSON()
	}
	n, err := pz.store.LoadPuzzles(ctx, js)
	if err != nil {
		fail("the puzzle set cannot be stored; the bot runs without it", err)
		return
	}
	pz.log.Info("puzzles loaded", "puzzles", len(ps), "new or changed", n)
	pz.forgetDay()
}

// command dispatches /kulami puzzle <sub>.
func (pz *puzzles) command(c *interaction, o options) error {
	switch name, sub := groupCommand(o); name {
	case "next":
		return pz.next(c)
	case "daily":
		return pz.daily(c, puzzle.Day(pz.clock.Now()))
	case "stats":
		return pz.stats(c, sub)
	}
	return refuse("error.unknown_command")
}

// next shows the caller's puzzle under way, or starts the next one near
// their rating.
func (pz *puzzles) next(c *interaction) error {
	me := c.user().ID
	try, err := pz.store.PuzzleTry(c.ctx, me)
	switch {
	case err == nil:
		return pz.show(c, try, nil)
	case !errors.Is(err, storage.ErrNotFound):
		return err
	}
	e, err := pz.store.NextPuzzle(c.ctx, me)
	if errors.Is(err, storage.ErrNotFound) {
		return errNoPuzzles
	} else if err != nil {
		return err
	}
	try = &storage.PuzzleTry{UserID: me, PuzzleID: e.ID(), Started: pz.clock.Now()}
	if err := pz.store.StartPuzzle(c.ctx, try); err != nil {
		return err
	}
	return pz.show(c, try, e)
}

// daily shows the daily puzzle of day (today's: a Solve button of
// another day is refused) to the caller: under way, or started; one
// they finished already is refused with its solution.
func (pz *puzzles) daily(c *interaction, day string) error {
	if today := puzzle.Day(pz.clock.Now()); day != today {
		return refuse("puzzle.daily_over", "Day", day)
	}
	d, err := pz.store.DailyPuzzle(c.ctx, day)
	if errors.Is(err, storage.ErrNotFound) {
		return errNoPuzzles
	} else if err != nil {
		return err
	}
	me := c.user().ID
	if try, err := pz.store.PuzzleTry(c.ctx, me); err == nil && try.Daily == day && try.PuzzleID == d.PuzzleID {
		return pz.show(c, try, nil)
	} else if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return err
	}
	if a, err := pz.store.PuzzleAttempt(c.ctx, me, d.PuzzleID); err == nil {
		e, err := pz.store.Puzzle(c.ctx, d.PuzzleID)
		if err != nil {
			return err
		}
		key := "puzzle.daily_failed"
		if a.Solved {
			key = "puzzle.daily_solved"
		}
		return refuse(key, "Solution", e.Puzzle.Solution)
	} else if !errors.Is(err, storage.ErrNotFound) {
		return err
	}
	try := &storage.PuzzleTry{UserID: me, PuzzleID: d.PuzzleID, Daily: day, Started: pz.clock.Now()}
	if err := pz.store.StartPuzzle(c.ctx, try); err != nil {
		return err
	}
	return pz.show(c, try, nil)
}

// solveButton answers the Solve button of a daily post: the daily of its
// day, as /kulami puzzle daily.
func (pz *puzzles) solveButton(c *interaction, id customID) error { return pz.daily(c, id.channel) }

// nextButton answers the Next puzzle button of a puzzle that ended: only
// its player's.
func (pz *puzzles) nextButton(c *interaction, id customID) error {
	if strconv.FormatUint(id.id, 10) != c.user().ID {
		return refuse("puzzle.not_yours")
	}
	return pz.next(c)
}

// entry returns the stored puzzle id and its puzzle, read once per
// version.
func (pz *puzzles) entry(ctx context.Context, id string) (*storage.PuzzleEntry, *puzzle.Puzzle, error) {
	e, err := pz.store.Puzzle(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	p, err := pz.parse(e)
	return e, p, err
}

// parse returns the puzzle e holds, read once per version (ID and hash).
func (pz *puzzles) parse(e *storage.PuzzleEntry) (*puzzle.Puzzle, error) {
	k := e.ID() + "/" + e.Hash
	if p, ok := pz.parsed.Load(k); ok {
		return p.(*puzzle.Puzzle), nil
	}
	p, err := puzzle.FromJSON(e.Puzzle)
	if err != nil {
		return nil, fmt.Errorf("stored puzzle %s: %w", e.ID(), err)
	}
	pz.parsed.Store(k, &p)
	return &p, nil
}

// replayTry starts an attempt at p and plays the moves of try's player in
// it (the defence follows each), as stored.
func replayTry(p *puzzle.Puzzle, try *storage.PuzzleTry) (*puzzle.Attempt, error) {
	a, err := p.Start()
	if err != nil {
		return nil, err
	}
	for i := 0; i < len(try.Moves); i += 2 {
		c, err := engine.ParseCell(try.Moves[i])
		if err != nil {
			return nil, fmt.Errorf("stored attempt at puzzle %s: %w", p.ID, err)
		}
		if _, err := a.Play(c); err != nil {
			return nil, fmt.Errorf("stored attempt at puzzle %s: %w", p.ID, err)
		}
	}
	return a, nil
}

// show answers c with the puzzle of try as it stands, and its menu; e is
// the stored puzzle if the caller has it.
func (pz *puzzles) show(c *interaction, try *storage.PuzzleTry, e *storage.PuzzleEntry) error {
	var p *puzzle.Puzzle
	var err error
	if e == nil {
		e, p, err = pz.entry(c.ctx, try.PuzzleID)
	} else {
		p, err = pz.parse(e)
	}
	if errors.Is(err, storage.ErrNotFound) {
		return errNoPuzzles
	} else if err != nil {
		return err
	}
	a, err := replayTry(p, try)
	if err != nil {
		return err
	}
	lang := c.lang()
	pos := a.Position()
	m, err := pz.drawBoard(c, lang, p, &pos, attemptGoing).message(pz.heading(lang, e, p, try), pz.menus(lang, try, &pos))
	if err != nil {
		return err
	}
	if c.i.Type == discordgo.InteractionMessageComponent && c.i.Message != nil && c.i.Message.Flags&discordgo.MessageFlagsEphemeral != 0 {
		return c.updateWithFile(m) // the Next puzzle button: the same message goes on
	}
	return c.reply(m)
}

// menus are the hole menus of try's position pos, whose custom IDs name
// its puzzle, its player and its step.
func (pz *puzzles) menus(lang i18n.Lang, try *storage.PuzzleTry, pos *engine.Position) []discordgo.MessageComponent {
	me, _ := strconv.ParseUint(try.UserID, 10, 64)
	return holeMenus(lang, pos, false, false, func(part int) string {
		return customID{action: actPuzzleMove, channel: try.PuzzleID, id: me, n: try.Step(), part: part}.String()
	})
}

// puzzleRating writes a puzzle's rating, rounded: without the question
// mark of a provisional player's, which says nothing to the solver.
func puzzleRating(r rating.Rating) string { return fmt.Sprintf("%.0f", r.Rating) }

// heading says in lang which puzzle try is at and what to find.
func (pz *puzzles) heading(lang i18n.Lang, e *storage.PuzzleEntry, p *puzzle.Puzzle, try *storage.PuzzleTry) string {
	solver, _ := p.Solver()
	lines := []string{lang.T("puzzle.title", "ID", p.ID, "Rating", puzzleRating(e.Rating))}
	if try.Daily != "" {
		lines[0] = lang.T("puzzle.daily_title", "Day", try.Daily, "Rating", puzzleRating(e.Rating))
	}
	lines = append(lines, lang.T("puzzle.goal_"+string(p.Goal), "Color", colorMark[solver]+" "+lang.T("color."+strings.ToLower(solver.String()))),
		lang.T("puzzle.step", "Move", try.Step()/2+1, "Moves", p.Moves()))
	return strings.Join(lines, "\n")
}

// pendingBoard is the board of a puzzle being drawn, in the bot's
// runner, while the handler stores what the move did.
type pendingBoard struct {
	done chan struct{}
	png  []byte
	alt  string
	err  error
}

// attemptEnd is how an attempt at a puzzle stands, as its board shows
// it: going on, or ended solved or failed.
type attemptEnd uint8

const (
	attemptGoing attemptEnd = iota
	attemptSolved
	attemptFailed
)

// drawBoard starts drawing the board of a puzzle's position pos for the
// caller, in their look (ownLook), as the attempt stands (end), and
// returns it.
func (pz *puzzles) drawBoard(c *interaction, lang i18n.Lang, p *puzzle.Puzzle, pos *engine.Position, end attemptEnd) *pendingBoard {
	solver, _ := p.Solver()
	var names [2]string
	names[solver], names[solver.Other()] = lang.T("puzzle.you"), lang.T("puzzle.defence")
	opt := drawPuzzle(lang, p, names, pz.views.ownLook(c.ctx, c.guild(), c.user().ID))
	if end != attemptGoing {
		puzzleEnd(lang, pos, &opt, end == attemptSolved)
	}
	b := &pendingBoard{done: make(chan struct{}), alt: puzzleAlt(lang, pos, p, names)}
	at := *pos
	go func() {
		defer close(b.done)
		var png bytes.Buffer
		if b.err = pz.views.render(jobRender, func() error { return pz.views.renderer.Render(&png, &at, opt) }); b.err != nil {
			b.err = fmt.Errorf("render the puzzle: %w", b.err)
		}
		b.png = png.Bytes()
	}()
	return b
}

// message is the message only the caller sees of the board b, once
// drawn, with text and components.
func (b *pendingBoard) message(text string, components []discordgo.MessageComponent) (message, error) {
	<-b.done
	if b.err != nil {
		return message{}, b.err
	}
	return message{content: truncate(text, 2000), components: components, ephemeral: true,
		file: &attachment{name: "puzzle.png", contentType: "image/png", data: b.png, description: b.alt}}, nil
}

// drawPuzzle are the drawing options of a puzzle's board in lang and
// the look lk (theme and marbles), its players named names: the footer
// says it is the reader's move ("à vous de jouer", not "à Vous").
func drawPuzzle(lang i18n.Lang, p *puzzle.Puzzle, names [2]string, lk look) draw.Options {
	return draw.Options{Names: names, Rules: p.Record.Rules, Text: drawYouText(lang), Theme: lk.theme, Marbles: lk.marbles}
}

// puzzleEnd shows pos, where an attempt at a puzzle ended (solved or
// not), as ended in opt: the result line says which, and, if the game
// ended on the board there, the reason names the colour (the boxes name
// the solver "You", which a sentence in the third person cannot take).
func puzzleEnd(lang i18n.Lang, pos *engine.Position, opt *draw.Options, solved bool) {
	opt.Over, opt.Outcome = true, lang.Plain("puzzle.image_failed")
	if solved {
		opt.Outcome = lang.Plain("puzzle.image_solved")
	}
	colors := opt.Text.ColorNames(opt.Marbles)
	switch {
	case pos.Ply() >= engine.MaxPly:
		opt.Reason = lang.Plain("outcome.all_placed", "Marbles", engine.MaxPly)
	case pos.IsOver():
		opt.Reason = lang.Plain("outcome.no_hole", "Player", colors[pos.ToMove()], "Move", pos.Ply())
	}
}

// move answers a hole picked in the menu of a puzzle under way: the
// player's own, at the step the attempt is at, a legal hole. A right
// move that does not end the puzzle plays the defence and goes on in the
// same message; the last right move or a wrong one ends it, counts it
// and says how both ratings and the streak moved.
func (pz *puzzles) move(c *interaction, id customID) error {
	me := c.user().ID
	if strconv.FormatUint(id.id, 10) != me {
		return refuse("puzzle.not_yours")
	}
	try, err := pz.store.PuzzleTry(c.ctx, me)
	if errors.Is(err, storage.ErrNotFound) || (err == nil && (try.PuzzleID != id.channel || try.Step() != id.n)) {
		return refuse("puzzle.stale")
	} else if err != nil {
		return err
	}
	e, p, err := pz.entry(c.ctx, try.PuzzleID)
	if err != nil {
		return err
	}
	a, err := replayTry(p, try)
	if err != nil {
		return err
	}
	values := c.i.MessageComponentData().Values
	var cell engine.Cell
	if len(values) == 1 {
		cell, err = engine.ParseCell(values[0])
	}
	if len(values) != 1 || err != nil {
		return refuse("puzzle.illegal", "Hole", escape(truncate(strings.Join(values, " "), 10)))
	}
	ans, err := a.Play(cell)
	var ruleErr *engine.RuleError
	if errors.As(err, &ruleErr) {
		return refuse("puzzle.illegal", "Hole", strings.ToUpper(cell.String()))
	} else if err != nil {
		return err
	}
	// Discord hears at once; the board is drawn while the move is stored.
	if err := c.answer.first(c, discordgo.InteractionResponseDeferredMessageUpdate, message{}); err != nil {
		return err
	}
	lang := c.lang()
	played := strings.ToUpper(cell.String())
	pos := a.Position()
	if ans.HasRefutation {
		if err := pos.Play(ans.Refutation); err != nil {
			return err
		}
	}
	end := attemptGoing
	switch {
	case ans.Solved:
		end = attemptSolved
	case !ans.Right:
		end = attemptFailed
	}
	board := pz.drawBoard(c, lang, p, &pos, end)
	var text string
	var components []discordgo.MessageComponent
	if ans.Right && !ans.Solved {
		next := *try
		next.Moves = append(append([]string(nil), try.Moves...), played, strings.ToUpper(ans.Defence.String()))
		if err := pz.store.AdvancePuzzle(c.ctx, try.Step(), &next); errors.Is(err, storage.ErrNotFound) {
			return refuse("puzzle.stale")
		} else if err != nil {
			return err
		}
		text = "✅ " + lang.T("puzzle.right", "Move", played, "Reply", strings.ToUpper(ans.Defence.String())) + "\n" + pz.heading(lang, e, p, &next)
		components = pz.menus(lang, &next, &pos)
	} else {
		o, err := pz.store.FinishPuzzle(c.ctx, storage.PuzzleResult{UserID: me, Name: c.displayName(), GuildID: c.guild(),
			PuzzleID: try.PuzzleID, Step: try.Step(), Solved: ans.Solved, At: pz.clock.Now()})
		if errors.Is(err, storage.ErrNotFound) {
			return refuse("puzzle.stale")
		} else if err != nil {
			return err
		}
		if o.Counted {
			pz.links.Puzzled(me)
		}
		result := "✅ " + lang.T("puzzle.solved", "Solution", p.SolutionText())
		switch {
		case !ans.Solved && ans.HasRefutation:
			result = "❌ " + lang.T("puzzle.wrong_refuted", "Move", played, "Reply", strings.ToUpper(ans.Refutation.String()), "Solution", p.SolutionText())
		case !ans.Solved:
			result = "❌ " + lang.T("puzzle.wrong", "Move", played, "Solution", p.SolutionText())
		}
		text = pz.heading(lang, e, p, try) + "\n" + result + "\n" + pz.outcomeLine(lang, o)
		components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{
			Label: lang.T("puzzle.next_button"), Style: discordgo.PrimaryButton, CustomID: customID{action: actPuzzleNext, id: id.id}.String()}}}}
	}
	m, err := board.message(text, components)
	if err != nil {
		return err
	}
	return c.updateWithFile(m)
}

// outcomeLine says in lang how an attempt that ended moved the player's
// rating and streak.
func (pz *puzzles) outcomeLine(lang i18n.Lang, o *storage.PuzzleOutcome) string {
	if !o.Counted {
		return lang.T("puzzle.not_counted")
	}
	line := lang.T("puzzle.rating_change", "Before", showRating(o.Before), "After", showRating(o.After), "Diff", ratingDiff(o.After.Rating-o.Before.Rating))
	if o.Profile.Streak == 0 {
		return line + " · " + lang.T("puzzle.streak_ended")
	}
	return line + " · " + lang.N("puzzle.streak", o.Profile.Streak)
}
