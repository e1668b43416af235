package storage

import (
	"context"
	"fmt"
	"time"
)

// SetAlive records that the bot is running at t, for BeginResume to tell
// how long it was down after a stop or a crash.
func (s *Core) SetAlive(ctx context.Context, t time.Time) error {
	if err := s.b.Update(ctx, func(tx Tx) error { return tx.PutAlive(t) }); err != nil {
		return fmt.Errorf("record the bot alive: %w", err)
	}
	return nil
}

// ResumeBatch is how many games Resume (and GiveBack) reads and changes in
// one transaction: small enough that a move or a due wake waiting for the
// writer is not held long. Measured with BenchmarkYear/Resume after a
// 1-hour outage at 100,000 running games on a busy machine, when the
// scheduler's first pass still gave the games due their time: 100 a
// batch made the longest transaction 226 ms and that first pass 2.1 s,
// 25 made them 58 ms and 1.1 s, the whole resume taking as long (26 s).
const ResumeBatch = 25

// Outage is a time the bot was down, from Alive to At, being given back to
// the active games in channel order: the games up to the channel After
// have had it.
type Outage struct {
	Alive time.Time `json:"alive"` // when the bot was last alive before the outage
	At    time.Time `json:"at"`    // when the bot started again
	After string    `json:"after"` // the channel of the last game done ("" for none)
}

// Down returns how long the bot was down.
func (o Outage) Down() time.Duration { return o.At.Sub(o.Alive) }

// owes reports whether g is yet to have the outage o: a game after After
// that no resume since o gave time back to, whose turn began before the
// bot came back (a game made or moved since was not down).
func (o Outage) owes(g *Game) bool {
	return g.ChannelID > o.After && (g.GivenBack == nil || g.GivenBack.At.Before(o.At)) && turnBegan(g).Before(o.At)
}

// Resuming is a resume under way (see BeginResume): its Outage is being
// given to the active games, in channel order, and the outages of resumes
// a crash or a stop cut short (Earlier) with it, each to the games it had
// not reached. It is kept until every game has had them, so that a resume
// that a crash interrupts goes on where it stopped; meanwhile a game that
// falls due is given what it is owed at once (GiveBack).
//
// Each game given back its time gets a reminder that says so
// (GivenBack.Remind), due PerSecond a second from At in the order of the
// games given back, so that the reminders of a hundred thousand games go
// out at a pace Discord takes, as due work among the rest.
type Resuming struct {
	Outage
	Earlier   []Outage `json:"earlier,omitempty"`    // the outages of the resumes cut short, oldest first
	PerSecond int      `json:"per_second,omitempty"` // reminders a second (0: all at once)
	Given     int      `json:"given,omitempty"`      // the games given back so far
}

// Owed returns the time the game g is yet to be given back: the sum of
// the outages (Earlier and the last) it is owed.
func (r *Resuming) Owed(g *Game) time.Duration {
	var d time.Duration
	for _, o := range append(r.Earlier[:len(r.Earlier):len(r.Earlier)], r.Outage) {
		if o.owes(g) {
			d += o.Down()
		}
	}
	return d
}

// giveBack gives g, whose stored form is old, the time it is owed, if any,
// by fn, and reports whether fn changed it. A game changed is marked as
// having had the resume, with its reminder due in the next slot of the
// resume's pace (one reminder for an earlier outage's too, if that is not
// sent yet).
func (r *Resuming) giveBack(g *Game, old *gameRecord, fn func(g *Game, down time.Duration) (bool, error)) (bool, error) {
	owed := r.Owed(g)
	if owed <= 0 {
		return false, nil
	}
	ok, err := fn(g, owed)
	if err != nil || !ok {
		return false, err
	}
	if err := g.checkUpdate(old); err != nil {
		return false, err
	}
	if g.Over() {
		return false, fmt.Errorf("%w: game %d: a resume may not end a game", ErrInvalid, g.ID)
	}
	remind := r.At
	if r.PerSecond > 0 {
		remind = remind.Add(time.Duration(r.Given/r.PerSecond) * time.Second)
	}
	if gb := g.GivenBack; gb != nil && !gb.Remind.IsZero() {
		owed += gb.Down // its reminder not sent: the next one says both
	}
	g.GivenBack = &GivenBack{At: r.At, Down: owed, Remind: remind}
	r.Given++
	return true, nil
}

// storedGame is an active game as a transaction read it, with the wake
// it is indexed under.
type storedGame struct {
	g    *Game
	wake time.Time
}

// readGames returns the games that read calls its fn with, all read
// before any is written (a read of several games may not be written to
// while it runs).
func readGames(read func(fn func(*Game, time.Time) error) error) ([]storedGame, error) {
	var games []storedGame
	err := read(func(g *Game, wake time.Time) error {
		games = append(games, storedGame{g, wake})
		return nil
	})
	return games, err
}

// giveBackAll gives each of games the time it is owed (giveBack), stores
// those fn changed, and returns their channels.
func (r *Resuming) giveBackAll(tx Tx, games []storedGame, fn func(g *Game, down time.Duration) (bool, error)) ([]string, error) {
	var done []string
	for _, st := range games {
		if ok, err := r.giveBack(st.g, st.g.record(), fn); err != nil {
			return nil, err
		} else if !ok {
			continue
		}
		if err := tx.PutGame(st.g, st.wake); err != nil {
			return nil, err
		}
		done = append(done, st.g.ChannelID)
	}
	return done, nil
}

// BeginResume is what a bot does first when it starts, in one short
// transaction: it reads when the bot was last alive (SetAlive) and, if it
// was down for at least minDown until now, stores a resume under way
// (Resuming) that gives that outage back to every active game, perSecond
// reminders a second; else it records now as alive. A resume that a crash
// cut short is kept, with the new outage (from when it began, or the bot
// was last alive since) added for every game, if that lasted minDown. It
// returns how long the bot was down (zero if it never recorded being
// alive) and whether a resume is under way: then Resume gives the time
// back in batches, and GiveBack to a game that falls due before its batch.
// Errors: ErrInvalid if perSecond is negative.
func (s *Core) BeginResume(ctx context.Context, now time.Time, minDown time.Duration, perSecond int) (time.Duration, bool, error) {
	if perSecond < 0 {
		return 0, false, fmt.Errorf("%w: %d reminders a second", ErrInvalid, perSecond)
	}
	var down time.Duration
	var under bool
	err := s.b.Update(ctx, func(tx Tx) error {
		r, err := tx.Resuming()
		if err != nil {
			return err
		}
		alive, err := tx.Alive()
		if err != nil {
			return err
		}
		if r != nil {
			alive = maxTime(alive, r.At) // the cut resume covers the time before
		}
		if down = 0; !alive.IsZero() {
			down = now.Sub(alive)
		}
		under = r != nil
		if down < minDown || down <= 0 {
			return tx.PutAlive(maxTime(alive, now))
		}
		next := &Resuming{Outage: Outage{Alive: alive, At: now}, PerSecond: perSecond}
		if r != nil {
			next.Earlier = append(r.Earlier, r.Outage)
		}
		under = true
		return tx.PutResuming(next)
	})
	if err != nil {
		return 0, false, fmt.Errorf("begin to resume after %v down: %w", down, err)
	}
	return down, under, nil
}

// Resuming returns the resume under way, nil if none.
func (s *Core) Resuming(ctx context.Context) (*Resuming, error) {
	r, err := inTx(ctx, s.b.View, func(tx Tx) (*Resuming, error) { return tx.Resuming() })
	if err != nil {
		return nil, fmt.Errorf("read the resume under way: %w", err)
	}
	return r, nil
}

// Resume gives the time of the resume under way (BeginResume) back to the
// active games, calling fn with each game owed some and how much, and
// storing the games for which fn reports a change, with the reminder that
// says so due (GivenBack). At the end it records the bot alive when the
// resume began (or later, if the bot recorded itself alive since) and
// drops the resume. It returns how many games fn changed.
//
// It reads and changes the games ResumeBatch at a time, in channel order,
// each batch in a transaction of its own, so that moves, due work and the
// other writes go on between them however many games there are. An
// outage is never handed to a game twice: the store keeps how far the
// resume got in each batch's transaction, and each game changed is marked
// with the resume (GivenBack.At), as GiveBack marks the games it reaches
// first. If fn returns an error, or ends a game (ErrInvalid), the batch
// of that game is not written (nor the bot recorded alive); the batches
// before it are, and the next Resume goes on after them. Moves and new
// games go on while it runs: a game whose turn began at or after the bot
// came back is not handed the outage, which was not its.
// Each batch is Recomputable: a backend may commit it without waiting
// for the disk.
//
// fn runs inside a write transaction: it must be quick and must not call
// the store; it may be called again (see Backend).
func (s *Core) Resume(ctx context.Context, fn func(g *Game, down time.Duration) (bool, error)) (int, error) {
	changed := 0
	for done := false; !done; {
		var n int
		err := s.b.Update(ctx, func(tx Tx) error {
			tx.Recomputable()
			var err error
			n, done, err = resumeBatch(tx, fn)
			return err
		})
		if err != nil {
			return changed, fmt.Errorf("resume: %w", err)
		}
		changed += n
	}
	return changed, nil
}

// GiveBack gives each game of channels, if a resume is under way
// (BeginResume) and the game is owed time by it, that time, as Resume
// would in its batch: it calls fn with the game and the time owed, and
// stores the game if fn reports a change, marked with the resume and its
// reminder due (GivenBack); ResumeBatch games a transaction. It returns
// the channels of the games fn changed. A channel without a game is
// passed by. A scheduler calls it with the games that fall due before the
// resume reached them, instead of acting on their wakes. Errors: fn's
// error; ErrInvalid if fn ended a game (the games of the transactions
// before are written).
func (s *Core) GiveBack(ctx context.Context, channels []string, fn func(g *Game, down time.Duration) (bool, error)) ([]string, error) {
	var changed []string
	for start := 0; start < len(channels); start += ResumeBatch {
		batch := channels[start:min(start+ResumeBatch, len(channels))]
		var done []string
		err := s.b.Update(ctx, func(tx Tx) error {
			tx.Recomputable()
			done = nil
			r, err := tx.Resuming()
			if err != nil || r == nil {
				return err
			}
			games, err := readGames(func(fn func(*Game, time.Time) error) error { return tx.GamesIn(batch, fn) })
			if err != nil {
				return err
			}
			if done, err = r.giveBackAll(tx, games, fn); err != nil || len(done) == 0 {
				return err
			}
			return tx.PutResuming(r)
		})
		if err != nil {
			return changed, fmt.Errorf("give back the time down to %d games: %w", len(batch), err)
		}
		changed = append(changed, done...)
	}
	return changed, nil
}

// resumeBatch gives the outages of the resume under way to its next
// ResumeBatch games, and records how far it got; at the last, it records
// the bot alive when the resume started (or later, if the bot recorded
// itself alive since) and drops the resume. It returns how many games fn
// changed and whether the resume is done.
func resumeBatch(tx Tx, fn func(g *Game, down time.Duration) (bool, error)) (int, bool, error) {
	r, err := tx.Resuming()
	if err != nil || r == nil {
		return 0, true, err
	}
	games, err := readGames(func(fn func(*Game, time.Time) error) error { return tx.GamesAfter(r.After, ResumeBatch, fn) })
	if err != nil {
		return 0, false, err
	}
	done, err := r.giveBackAll(tx, games, fn)
	if err != nil {
		return 0, false, err
	}
	changed := len(done)
	if len(games) == ResumeBatch {
		r.After = games[len(games)-1].g.ChannelID
		for i := range r.Earlier { // this pass gave them theirs too
			r.Earlier[i].After = max(r.Earlier[i].After, r.After)
		}
		return changed, false, tx.PutResuming(r)
	}
	alive, err := tx.Alive()
	if err != nil {
		return 0, false, err
	}
	if err := tx.PutAlive(maxTime(alive, r.At)); err != nil {
		return 0, false, err
	}
	return changed, true, tx.PutResuming(nil)
}

// turnBegan returns when the turn of g began: its last move, or its
// creation.
func turnBegan(g *Game) time.Time {
	if moves := g.Moves(); len(moves) > 0 {
		return moves[len(moves)-1].At
	}
	return g.Created()
}

// maxTime returns the later of a and b.
func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
