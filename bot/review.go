package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/bot/jobs"
	"github.com/kulami/kulami/draw"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/review"
	"github.com/kulami/kulami/storage"
)

// reviewPerPosition is about how long the analysis of one position takes
// at review.DefaultPlayouts: a 56-move game takes 20 to 30 s on the
// project's 2-core machine (engine/review's doc). It only serves to tell
// people when to expect the review.
const reviewPerPosition = 500 * time.Millisecond

// reviewLease is how long a bot holds the claim on a review it makes (see
// claimReview), so that another bot on the same store, resuming the
// reviews pending, skips it: longer than a review waits in the queue and
// takes (half a minute) in all but a jam, short enough that a review of a
// bot that died is taken over by the next to start a quarter of an hour
// later.
const reviewLease = 15 * time.Minute

// claimer takes leases on work that processes sharing a store do once:
// storage.Core.Claim.
type claimer interface {
	Claim(ctx context.Context, w storage.Wake, owner string, now time.Time, d time.Duration) (bool, error)
}

// reviews handles the computer's reviews of finished games (/kulami
// review and its step buttons) and the animated replays (Replay (GIF)).
// It is safe for concurrent use.
type reviews struct {
	store  FinishedStore
	clock  Clock
	log    *slog.Logger
	runner *jobs.Runner // reviews queue on it, behind the computer's moves
	out    *outbound
	langs  *locales
	views  *views
	// replays keeps the animated replays drawn and where they were posted.
	replays *replays
	// cooldowns space each user's reviews and replays.
	cooldowns cooldowns
	// reviewer analyses a game for a review: review.Analyse.
	reviewer func(context.Context, *engine.Record, review.Options) (*review.Analysis, error)
	// leases and owner: the bot claims each review it makes, as owner, so
	// that one bot of those sharing the store makes it.
	leases claimer
	owner  string
	// held are the reviews the bot has queued and not finished, whose
	// claims it renews while they wait (renew).
	held held
}

// held is a set of finished games whose reviews a bot holds, by runner
// key. It is safe for concurrent use.
type held struct {
	mu sync.Mutex
	m  map[string]*storage.FinishedGame
}

// add adds f as key.
func (h *held) add(key string, f *storage.FinishedGame) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.m == nil {
		h.m = map[string]*storage.FinishedGame{}
	}
	h.m[key] = f
}

// remove removes key.
func (h *held) remove(key string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.m, key)
}

// all returns the games held.
func (h *held) all() []*storage.FinishedGame {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Collect(maps.Values(h.m))
}

// reviewCommand handles /kulami review: the computer's analysis of a
// finished game, the channel's last one or one of the server by number.
// An analysis is computed once, by the bot's runner after the computer's
// moves and the reviews queued before, and stored with the game; the
// first answer tells only the asker when to expect it, and the review is
// posted in the channel for everyone. Each user has one review queued at
// most, and waits requestCooldown after one is made before asking for
// the next; the queue is bounded.
func (rv *reviews) reviewCommand(c *interaction, o options) error {
	f, err := rv.reviewedGame(c, o.int("game", 0))
	if err != nil {
		return err
	}
	if len(f.Moves()) == 0 {
		return refuse("review.empty", "Game", f.ID)
	}
	lang := rv.langs.publicLang(c)
	a, err := rv.storedReview(c.ctx, f)
	if err == nil {
		_, lk := rv.views.guildLook(c.ctx, f.GuildID)
		m, err := reviewMessage(rv.views, lang, f, a, lk)
		if err != nil {
			return err
		}
		return c.reply(m)
	} else if !errors.Is(err, storage.ErrNotFound) {
		return err
	}
	now, owner := rv.clock.Now(), c.user().ID
	if _, queued := rv.runner.Position(reviewKey(f)); queued {
		return c.say(c.lang().T("review.busy", "Game", f.ID))
	}
	if at, ok := rv.cooldowns.ready(jobReview, owner, now); !ok {
		return c.say(c.lang().T("review.cooldown", "When", timestamp(at)))
	}
	if mine, err := rv.claimReview(c.ctx, f); err != nil {
		return err
	} else if !mine {
		return c.say(c.lang().T("review.busy", "Game", f.ID))
	}
	// Marked pending before it is queued, so that a stop of the bot before
	// the review is made does not lose it: the bot makes it after its
	// restart (resume).
	if err := rv.store.QueueReview(c.ctx, storage.PendingReview{GuildID: f.GuildID, GameID: f.ID, ChannelID: c.i.ChannelID, Lang: string(lang), UserID: owner}); err != nil {
		rv.log.Warn("cannot mark a review pending; a restart before it is made loses it", "game", f.ID, "err", err)
	}
	place, err := rv.queue(f, lang, c.i.ChannelID, owner)
	if err != nil && !errors.Is(err, jobs.ErrDuplicate) { // a duplicate's mark is the one queued's
		rv.drop(c.ctx, f.GuildID, f.ID)
	}
	switch {
	case errors.Is(err, jobs.ErrDuplicate):
		return c.say(c.lang().T("review.busy", "Game", f.ID))
	case errors.Is(err, jobs.ErrOwnerLimit):
		return refuse("review.yours_queued")
	case errors.Is(err, jobs.ErrQueueFull):
		return refuse("review.queue_full")
	case err != nil:
		return err
	}
	cost := reviewCost(f)
	ready := now.Add(place.Wait + cost + 5*time.Second)
	text := c.lang().N("review.started", len(f.Moves()), "Game", f.ID, "Ready", timestamp(ready))
	if place.Ahead > 0 {
		text += " " + c.lang().N("review.queued", place.Ahead)
	}
	return c.say(text)
}

// reviewKey names the review of f in the bot's runner.
func reviewKey(f *storage.FinishedGame) string { return fmt.Sprintf("review:%s:%d", f.GuildID, f.ID) }

// reviewCost is about how long the computer takes to review f.
func reviewCost(f *storage.FinishedGame) time.Duration {
	return time.Duration(len(f.Moves())) * reviewPerPosition
}

// queue queues the review of f on the runner, to be posted in channel in
// lang, for owner. A review that fails is dropped and the channel told; one
// that the bot's stop cancels, or drops from the queue, stays marked
// pending in the store, for resume after the restart. Errors: those of
// jobs.Runner.Submit.
//
// The review's claim (claimReview) is held while it waits and runs: renew
// renews it, and the job claims it again when it starts, so that a bot
// that took it over meanwhile (this bot's claim had lapsed) makes it
// alone.
func (rv *reviews) queue(f *storage.FinishedGame, lang i18n.Lang, channel, owner string) (jobs.Place, error) {
	key := reviewKey(f)
	rv.held.add(key, f)
	place, err := rv.runner.Submit(jobs.Job{
		Class: jobReview, Key: key, Owner: owner, Cost: reviewCost(f),
		// The job's context, not the interaction's: the review outlives
		// the interaction, which has answered by then, by design.
		Run: func(ctx context.Context) error {
			defer rv.held.remove(key)
			if mine, err := rv.claimReview(ctx, f); err == nil && !mine {
				rv.log.Info("a review queued here is made by another bot", "game", f.ID)
				return nil
			}
			err := rv.analyse(ctx, lang, f, channel, owner)
			// Cancelled: the bot stops (and the job's worker, in Yield,
			// may see it before ctx does).
			stopped := errors.Is(err, context.Canceled) || errors.Is(err, jobs.ErrClosed)
			if err != nil && !stopped {
				rv.drop(context.WithoutCancel(ctx), f.GuildID, f.ID)
				rv.reviewFailed(context.WithoutCancel(ctx), lang, f, channel)
			}
			return err
		},
		Drop: func() {
			rv.held.remove(key)
			rv.log.Info("a review queued at the stop is left for the restart", "game", f.ID)
		},
	})
	if err != nil && !errors.Is(err, jobs.ErrDuplicate) { // a duplicate's is the one queued's
		rv.held.remove(key)
	}
	return place, err
}

// renew renews the claims of the reviews the bot holds (queued or being
// made), so that another bot sharing the store, resuming the reviews
// pending, leaves them to this one however long they wait. The scheduler
// calls it every aliveEvery, well within reviewLease.
func (rv *reviews) renew(ctx context.Context) {
	for _, f := range rv.held.all() {
		if mine, err := rv.claimReview(ctx, f); err != nil {
			rv.log.Warn("cannot renew the claim on a review", "game", f.ID, "err", err)
		} else if !mine {
			rv.log.Warn("the claim on a review queued here lapsed, and another bot holds it", "game", f.ID)
		}
	}
}

// resume queues again the reviews marked pending in the store: those the
// bot was asked for and did not make before it stopped. A mark of a
// review made, or of a game gone, is dropped; a review that cannot be
// queued is dropped and its channel told.
func (rv *reviews) resume(ctx context.Context) {
	ps, err := rv.store.PendingReviews(ctx)
	if err != nil {
		rv.log.Error("cannot read the reviews pending", "err", err)
		return
	}
	for _, p := range ps {
		f, err := rv.store.FinishedGame(ctx, p.GuildID, p.GameID)
		if errors.Is(err, storage.ErrNotFound) {
			rv.drop(ctx, p.GuildID, p.GameID)
			continue
		} else if err != nil {
			rv.log.Error("cannot read the game of a review pending", "game", p.GameID, "err", err)
			continue
		}
		if _, err := rv.storedReview(ctx, f); err == nil {
			rv.drop(ctx, p.GuildID, p.GameID)
			continue
		}
		if mine, err := rv.claimReview(ctx, f); err != nil || !mine {
			if err != nil {
				rv.log.Error("cannot claim a review pending", "game", f.ID, "err", err)
			}
			continue // another bot makes it, or the next start does
		}
		lang, ok := i18n.Parse(p.Lang)
		if !ok {
			lang = i18n.English
		}
		if _, err := rv.queue(f, lang, p.ChannelID, p.UserID); err != nil && !errors.Is(err, jobs.ErrDuplicate) {
			rv.log.Warn("cannot queue a review pending", "game", f.ID, "err", err)
			rv.drop(ctx, p.GuildID, p.GameID)
			rv.reviewFailed(ctx, lang, f, p.ChannelID)
		}
	}
}

// claimReview claims the review of f for the bot for reviewLease, and
// reports whether it got it: false if another bot sharing the store holds
// it, which makes the review then. A review has no wake time: its claims
// all name one instant, the epoch, so that they contend (Claim grants a
// lease on another wake of the same key).
func (rv *reviews) claimReview(ctx context.Context, f *storage.FinishedGame) (bool, error) {
	w := storage.Wake{Kind: storage.WakeReview, ChannelID: storage.FinishedWake(f.GuildID, f.ID), At: time.Unix(0, 0)}
	return rv.leases.Claim(ctx, w, rv.owner, rv.clock.Now(), reviewLease)
}

// drop drops the mark of the pending review of the game id of guild.
func (rv *reviews) drop(ctx context.Context, guild string, id uint64) {
	if err := rv.store.DropReview(ctx, guild, id); err != nil {
		rv.log.Warn("cannot drop the mark of a review pending", "game", id, "err", err)
	}
}

// reviewFailed tells channel, in lang, that the review of f could not be
// finished (it failed, or the bot shut down first).
func (rv *reviews) reviewFailed(ctx context.Context, lang i18n.Lang, f *storage.FinishedGame, channel string) {
	if _, err := rv.out.send(ctx, channel, message{content: lang.T("review.failed", "Game", f.ID)}); err != nil {
		rv.log.Warn("cannot tell that a review failed", "err", err)
	}
}

// reviewedGame returns the finished game a /kulami review asks for: the
// game numbered n of the server, or with n zero the channel's last
// finished game.
func (rv *reviews) reviewedGame(c *interaction, n int) (*storage.FinishedGame, error) {
	if n > 0 {
		f, err := rv.store.FinishedGame(c.ctx, c.i.GuildID, uint64(n))
		if errors.Is(err, storage.ErrNotFound) {
			return nil, refuse("history.no_such_game", "Game", uint64(n))
		}
		return f, err
	}
	f, err := rv.store.LastFinishedGame(c.ctx, c.i.GuildID, c.i.ChannelID)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, refuse("review.none")
	}
	return f, err
}

// storedReview reads the stored analysis of f, or returns an error
// wrapping storage.ErrNotFound if there is none of this version.
func (rv *reviews) storedReview(ctx context.Context, f *storage.FinishedGame) (*review.Analysis, error) {
	data, err := rv.store.Review(ctx, f.GuildID, f.ID)
	if err != nil {
		return nil, err
	}
	a := new(review.Analysis)
	if err := json.Unmarshal(data, a); err != nil {
		return nil, err
	}
	if a.Version != review.Version || len(a.Moves) != len(f.Moves()) {
		return nil, fmt.Errorf("review of game %d has version %d: %w", f.ID, a.Version, storage.ErrNotFound)
	}
	return a, nil
}

// analyse reviews f with the computer, stores the analysis, starts the
// cooldown of owner, who asked for it, and posts the review in channel, in
// lang. It runs on the runner's search worker, and
// yields it between positions (jobs.Yield), so a move of the computer
// waits for one position's search at most, never for a whole review.
func (rv *reviews) analyse(ctx context.Context, lang i18n.Lang, f *storage.FinishedGame, channel, owner string) error {
	rec, err := engine.ParseRecord(f.RecordText)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	a, err := rv.reviewer(ctx, rec, review.Options{Seed: f.ID, Progress: func(done, total int) {
		if done < total && jobs.Yield(ctx) != nil {
			cancel()
		}
	}})
	if err != nil {
		return err
	}
	data, err := json.Marshal(a)
	if err != nil {
		return err
	}
	if err := rv.store.SaveReview(ctx, f.GuildID, f.ID, data); err != nil {
		return err
	}
	rv.cooldowns.take(jobReview, owner, rv.clock.Now())
	_, lk := rv.views.guildLook(ctx, f.GuildID)
	m, err := reviewMessage(rv.views, lang, f, a, lk)
	if err != nil {
		return err
	}
	_, err = rv.out.send(ctx, channel, m)
	return err
}

// reviewMessage is the public review of f in lang: the chart of red's
// chance to win, drawn as the guild's boards look (lk) within the render
// bound (views.render: a storm of reviews asked again draws a chart a
// core at a time, not one an asker), each
// player's three costliest moves and the buttons to step through the
// game.
func reviewMessage(v *views, lang i18n.Lang, f *storage.FinishedGame, a *review.Analysis, lk look) (message, error) {
	var png bytes.Buffer
	chart := reviewChart(lang, f, a, lk)
	if err := v.render(jobRender, func() error { return v.renderer.RenderChart(&png, chart) }); err != nil {
		return message{}, fmt.Errorf("draw the chart: %w", err)
	}
	outcome, _ := outcome(lang, &f.Game, playerName, false)
	var t strings.Builder
	t.WriteString(lang.T("review.title", "Game", f.ID, "Red", colorMark[engine.Red]+" "+escape(playerName(lang, f.Player(engine.Red))),
		"Black", colorMark[engine.Black]+" "+escape(playerName(lang, f.Player(engine.Black))), "Outcome", escape(outcome)) + "\n")
	for _, c := range []engine.Color{engine.Red, engine.Black} {
		t.WriteString("\n" + colorMark[c] + " " + lang.T("review.mistakes", "Player", escape(f.Player(c).Name)))
		worst := a.Mistakes(c, 3)
		if len(worst) == 0 {
			t.WriteString(" " + lang.T("review.no_mistakes", "Points", lang.Percent(review.MinCost)))
			continue
		}
		for _, m := range worst {
			t.WriteString("\n- " + lang.T("review.mistake", "Move", m.Ply, "Hole", m.Cell, "Best", m.Best, "Before", lang.Percent(m.Before), "After", lang.Percent(m.After)))
		}
	}
	t.WriteString(planReview(lang, f))
	t.WriteString("\n\n" + lang.T("review.chart", "Player", escape(playerName(lang, f.Player(engine.Red)))))
	return message{
		content:    t.String(),
		file:       &attachment{name: "review.png", contentType: "image/png", data: png.Bytes(), description: chartAlt(lang, f, a)},
		components: stepButtons(f, -1, len(a.Moves)),
	}, nil
}

// reviewChart is the chart of red's chance to win in f, as a analysed it,
// for readers of lang in the look lk: the players named in its title and
// at the top (red wins) and the bottom (black wins) of the plot, and the
// three moves that swung the game most marked.
func reviewChart(lang i18n.Lang, f *storage.FinishedGame, a *review.Analysis, lk look) draw.Chart {
	n := names(lang, &f.Game)
	chart := draw.Chart{Red: a.RedChances(), Theme: lk.theme, Marbles: lk.marbles, Names: n, Texts: lang.Chart(n[engine.Red], n[engine.Black])}
	for _, m := range a.SwingMarks(3) {
		chart.Marks = append(chart.Marks, draw.ChartMark(m))
	}
	return chart
}

// chartAlt describes the review chart of f's analysis a in lang, for
// screen readers: whose chance it shows, where it starts and ends, and the
// moves it marks.
func chartAlt(lang i18n.Lang, f *storage.FinishedGame, a *review.Analysis) string {
	red := a.RedChances()
	var swings []string
	for _, m := range a.SwingMarks(3) {
		swings = append(swings, m.Label)
	}
	more := ""
	if len(swings) > 0 {
		more = lang.T("alt.chart_swings", "Swings", strings.Join(swings, ", "))
	}
	return truncate(lang.T("alt.chart", "Player", playerName(lang, f.Player(engine.Red)), "Game", f.ID,
		"Start", lang.Percent(red[0]), "End", lang.Percent(red[len(red)-1]), "Swings", more), 1024)
}

// reviewedPlans is how many of a game's plans its review lists, the last
// ones set: a review is one message.
const reviewedPlans = 4

// planReview lists, in lang, the plans the players of f set (kept in the
// record once the game ended): the last reviewedPlans of them, each with
// its lines; "" if nobody planned.
func planReview(lang i18n.Lang, f *storage.FinishedGame) string {
	plans := f.PlanLog()
	if len(plans) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n\n" + lang.T("plan.review_title"))
	for _, p := range plans[max(0, len(plans)-reviewedPlans):] {
		lines := make([]string, len(p.Lines))
		for i, l := range p.Lines {
			lines[i] = lineWords(lang, l)
		}
		b.WriteString("\n- " + truncate(lang.T("plan.review_line", "Player", colorMark[p.By]+" "+escape(f.Player(p.By).Name), "Move", p.Ply,
			"Lines", strings.Join(lines, "; ")), 300))
	}
	if n := len(plans) - reviewedPlans; n > 0 {
		b.WriteString("\n" + lang.N("plan.review_more", n))
	}
	return b.String()
}

// stepAlt describes the board of f after ply moves of a's, for screen
// readers.
func stepAlt(lang i18n.Lang, f *storage.FinishedGame, a *review.Analysis, ply int) string {
	if ply == 0 {
		return lang.T("alt.board", "Width", f.Layout().Width(), "Height", f.Layout().Height(), "Rules", lang.T(rulesShort[f.Rules()]),
			"Red", playerName(lang, f.Player(engine.Red)), "Black", playerName(lang, f.Player(engine.Black)))
	}
	m := a.Moves[ply-1]
	return lang.T("alt.review_step", "Game", f.ID, "Move", ply, "Moves", len(a.Moves), "Player", playerName(lang, f.Player(m.Color)), "Hole", m.Cell)
}

// stepButtons are ⏮ ◀ ▶ ⏭ for a message that shows the game f after ply
// moves of last: the start, the move before, the move after and the end.
// The review itself has ply -1: from there ▶ shows the first move. Each
// button names the ply it shows, so it works after a restart.
func stepButtons(f *storage.FinishedGame, ply, last int) []discordgo.MessageComponent {
	targets := []struct {
		label string
		to    int
	}{{"⏮", 0}, {"◀", ply - 1}, {"▶", max(ply+1, 1)}, {"⏭", last}}
	var row []discordgo.MessageComponent
	for k, s := range targets {
		row = append(row, discordgo.Button{
			Label:    s.label,
			Style:    discordgo.SecondaryButton,
			CustomID: customID{action: actReviewStep, channel: f.ChannelID, id: f.ID, n: max(s.to, 0), part: k + 1}.String(),
			Disabled: s.to < 0 || s.to > last || s.to == ply,
		})
	}
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: row}}
}

// reviewStep answers ⏮ ◀ ▶ ⏭: the board of the game after id.n moves
// with the analysis of the last of them, in a message only the clicker
// sees (so that everyone can step through the game on their own).
func (rv *reviews) reviewStep(c *interaction, id customID) error {
	f, err := rv.store.FinishedGame(c.ctx, c.i.GuildID, id.id)
	if errors.Is(err, storage.ErrNotFound) {
		return errFinishedGone
	} else if err != nil {
		return err
	}
	a, err := rv.storedReview(c.ctx, f)
	if errors.Is(err, storage.ErrNotFound) {
		return refuse("review.gone", "Game", f.ID)
	} else if err != nil {
		return err
	}
	ply := min(id.n, len(a.Moves))
	rec, err := engine.ParseRecord(f.RecordText)
	if err != nil {
		return err
	}
	p := engine.NewPosition(rec.Layout, rec.First)
	for _, m := range rec.Moves[:ply] {
		if err := p.PlayMove(m); err != nil {
			return err
		}
	}
	over := ply == len(a.Moves)
	lang := c.lang()
	lk := rv.views.ownLook(c.ctx, c.i.GuildID, c.user().ID) // only the clicker sees it
	opt := draw.Options{Names: names(lang, &f.Game), Rules: f.Rules(), Over: over, Text: drawText(lang), Theme: lk.theme, Marbles: lk.marbles}
	if over {
		opt.Outcome, opt.Reason = outcome(lang, &f.Game, playerName, true)
		opt.Winner = winner(&f.Game)
	}
	var png bytes.Buffer
	if err := rv.views.render(jobRender, func() error { return rv.views.renderer.Render(&png, &p, opt) }); err != nil {
		return fmt.Errorf("render the board: %w", err)
	}
	return c.reply(message{
		content:    stepText(lang, f, a, ply),
		file:       &attachment{name: "board.png", contentType: "image/png", data: png.Bytes(), description: stepAlt(lang, f, a, ply)},
		components: stepButtons(f, ply, len(a.Moves)),
		ephemeral:  true,
	})
}

// stepText is the analysis, in lang, of the move that led to ply in a, or
// of the start for ply 0.
func stepText(lang i18n.Lang, f *storage.FinishedGame, a *review.Analysis, ply int) string {
	red := a.RedChances()
	head := lang.T("review.step", "Game", f.ID, "Move", ply, "Moves", len(a.Moves)) + " "
	if ply == 0 {
		return head + lang.T("review.step_start", "Player", colorMark[engine.Red]+" "+escape(playerName(lang, f.Player(engine.Red))), "Chance", lang.Percent(red[0]))
	}
	m := a.Moves[ply-1]
	text := head + lang.T("review.step_move", "Player", colorMark[m.Color]+" "+escape(f.Player(m.Color).Name), "Hole", m.Cell,
		"Before", lang.Percent(m.Before), "After", lang.Percent(m.After))
	if moves := f.Moves(); moves[ply-1].Planned {
		text += " " + lang.T("plan.review_step")
	}
	switch {
	case m.Mistake():
		text += " " + lang.T("review.step_mistake", "Best", m.Best, "Cost", lang.Percent(m.Cost))
	case m.Best == m.Cell:
		text += " " + lang.T("review.step_best")
	default:
		text += " " + lang.T("review.step_other", "Best", m.Best)
	}
	return text
}
