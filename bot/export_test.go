package bot

import (
	"context"
	"time"
)

// RunDue does, once, what the scheduler does when it wakes: it records
// the bot alive (and renews its claims on reviews) and does everything
// due now, and waits for the games it handed to the giver to have their
// time back. Tests of the clocks call it instead of running RunScheduler,
// so they know when the work is done.
func (b *Bot) RunDue(ctx context.Context) bool {
	b.sched.heartbeat(ctx, b.clock.Now())
	failed := b.sched.runDue(ctx)
	b.sched.giver.wait()
	return failed
}

// HandDue does what the scheduler does when it wakes, as RunDue, but
// returns without waiting for the giver, whose GiveBack calls a test
// may hold: it reports whether something failed.
func (b *Bot) HandDue(ctx context.Context) bool {
	b.sched.heartbeat(ctx, b.clock.Now())
	return b.sched.runDue(ctx)
}

// WaitGiven waits for the games handed to the giver to have their time.
func (b *Bot) WaitGiven() { b.sched.giver.wait() }

// Resume does what RunScheduler does first: give back the time the bot was
// down, here all of it before it returns (the reminders that say so are
// then due work, which RunDue does). Tests without the scheduler goroutine
// call it at start.
func (b *Bot) Resume(ctx context.Context) error {
	b.sched.puzzles.load(ctx)
	resuming, err := b.sched.beginResume(ctx)
	if err != nil || !resuming {
		return err
	}
	return b.sched.resumeGames(ctx)
}

// SetDueWithin sets how long the scheduler gives the work of one due wake
// (dueWithin), for a test that lets one hang.
func (b *Bot) SetDueWithin(d time.Duration) { b.sched.within = d }

// AliveEvery is how often at most the scheduler records the bot alive.
const AliveEvery = aliveEvery

// OptionID is the message id of an option, as localize looks it up.
var OptionID = optionID

// BeforeRetire makes f run each time a new board is noted and the old
// one not yet retired, for a test of a process that dies between the two.
func (b *Bot) BeforeRetire(f func()) { b.play.table.beforeRetire = f }

// CloseAfter is Close with its waits for the interactions in flight on
// after instead of the system's timers, for a test that says when the
// grace is over.
func (b *Bot) CloseAfter(grace time.Duration, after func(time.Duration) <-chan time.Time) {
	b.close(grace, after)
}

// ClockWords says a move clock in lang, as challenges and boards do.
var ClockWords = clockWords

// StopMending makes the bot try nothing again that Discord failed
// (mender), as a process that died after owing it: the scheduler's repair
// pays the debts, for a test of that repair.
func (b *Bot) StopMending() {
	m := b.play.table.mend
	m.mu.Lock()
	defer m.mu.Unlock()
	m.off = true
}
