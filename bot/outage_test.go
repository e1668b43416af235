package bot_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/postgres"
	"github.com/kulami/kulami/storage/postgres/pgtest"
)

// errCut is the stop that cutResume makes in the middle of a resume.
var errCut = errors.New("stopped in the middle of the resume")

// cutResume is a store whose Resume stops (errCut) when it reaches the
// game after the first after games, as a bot stopped mid-resume does: the
// batches before that game's are written, its own is not.
type cutResume struct {
	bot.Store
	after int
}

// Resume implements bot.Store.
func (c cutResume) Resume(ctx context.Context, fn func(g *storage.Game, down time.Duration) (bool, error)) (int, error) {
	seen := map[string]bool{}
	return c.Store.Resume(ctx, func(g *storage.Game, down time.Duration) (bool, error) {
		if !seen[g.ChannelID] && len(seen) == c.after {
			return false, errCut
		}
		seen[g.ChannelID] = true
		return fn(g, down)
	})
}

// outageGames is a manual harness, on bbolt or PostgreSQL (st, which the
// bot is given unless a test wraps it), with games made straight in the
// store.
type outageGames struct {
	*harness
	st       bot.Store
	channels []string
}

// newOutageGames stops a manual harness on backend and makes n games
// between alice and bob in channels of their own, all begun at the
// clock's time: the first n-1 with a move clock of 72 hours, the last
// with last; and it records the bot last alive alive after that time. The
// bot is left stopped.
func newOutageGames(t *testing.T, backend string, n int, last, alive time.Duration) *outageGames {
	return newOutageGamesShort(t, backend, n, 1, last, alive, game.Auto)
}

// newOutageGamesShort is newOutageGames with the last short games, not
// only the last one, on a move clock of last, and their clocks' timeouts;
// in games of claims (game.Claim) alice and bob have made a move each,
// which a claim needs.
func newOutageGamesShort(t *testing.T, backend string, n, short int, last, alive time.Duration, timeouts game.Timeouts) *outageGames {
	t.Helper()
	var pg *postgres.Store
	if backend == "postgres" {
		var err error
		pg, err = postgres.OpenConfig(pgtest.Schema(t), storage.Options{}, patientPG)
		require.NoError(t, err)
	}
	h := newHarnessWith(t, "gateway", func(h *harness) {
		h.manual = true
		if pg != nil {
			h.wrap = func(*storage.Store) bot.Store { return pg }
		}
	})
	h.stop()
	o := &outageGames{harness: h, st: pg}
	if pg != nil {
		t.Cleanup(func() { h.stop(); pg.Close() })
	} else {
		bulk, err := storage.Open(h.dbPath, storage.Options{NoSync: true})
		require.NoError(t, err)
		defer bulk.Close()
		o.st = bulk
	}
	for i := range n {
		ch := h.dc.AddChannel(fmt.Sprintf("game-%d", i))
		o.channels = append(o.channels, ch.ID)
		moveTime := 72 * time.Hour
		if i >= n-short {
			moveTime = last
		}
		gg, err := game.New(game.Config{
			Layout: engine.Square(), First: engine.Red, MoveTime: moveTime, Timeouts: timeouts,
			Players: [2]game.Player{{UserID: h.alice.ID, Name: "alice"}, {UserID: h.bob.ID, Name: "bob"}},
		}, h.clock.Now())
		require.NoError(t, err)
		if timeouts == game.Claim {
			for range 2 {
				p := gg.Position()
				require.NoError(t, gg.Play(gg.ToMove(), gg.Ply(), p.Legal().Cells(p.Layout())[0], h.clock.Now()))
			}
		}
		require.NoError(t, o.st.CreateGame(t.Context(), &storage.Game{GuildID: h.dc.GuildID(), ChannelID: ch.ID, Game: gg}))
	}
	require.NoError(t, o.st.SetAlive(t.Context(), h.clock.Now().Add(alive)))
	if pg == nil {
		o.st = nil // closed with bulk: read through h.store once started
	}
	return o
}

// store returns the store the bot runs on.
func (o *outageGames) store() bot.Store {
	if o.st != nil {
		return o.st
	}
	return o.harness.store
}

// deadline returns the deadline of the game of channel.
func (o *outageGames) deadline(channel string) time.Time {
	o.t.Helper()
	g, err := o.store().Game(o.t.Context(), channel)
	require.NoError(o.t, err)
	return g.Deadline()
}

// offline matches the reminder of the time given back, and how many hours.
var offline = regexp.MustCompile(`I was offline for (\d+) hours?`)

// outageReminders returns the hours that the reminders of the time given
// back in channel said, in order.
func (o *outageGames) outageReminders(channel string) []int {
	var hours []int
	for _, m := range o.reminders(channel) {
		if sub := offline.FindStringSubmatch(m.Content); sub != nil {
			n, err := strconv.Atoi(sub[1])
			require.NoError(o.t, err)
			hours = append(hours, n)
		}
	}
	return hours
}

// sent returns how many reminders of the time given back were sent.
func (o *outageGames) sent() int {
	k := 0
	for _, ch := range o.channels {
		k += len(o.outageReminders(ch))
	}
	return k
}

// TestOutageCutAndRestart stops the bot in the middle of a resume (its
// second batch) and of its reminders, then restarts it after a second
// outage: every game gets each outage once (the ones the first resume
// reached, the one given its time when it fell due before its batch, and
// the rest), every reminder owed is sent once (one that says both outages
// where the first was not sent yet), at outageReminders a second.
func TestOutageCutAndRestart(t *testing.T) {
	t.Parallel()
	for _, backend := range []string{"bbolt", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			const n = 2*storage.ResumeBatch + 6
			const cut = storage.ResumeBatch * 3 / 2 // in the second batch
			o := newOutageGames(t, backend, n, 40*time.Minute, 30*time.Minute)
			t0 := o.clock.Now()
			due := o.channels[n-1]            // its deadline passes in the outage
			o.clock.Advance(90 * time.Minute) // down an hour
			inner := o.wrap
			o.wrap = func(s *storage.Store) bot.Store {
				if inner != nil {
					return cutResume{inner(s), cut}
				}
				return cutResume{s, cut}
			}
			o.resumeErr = errCut
			o.start()

			assert.WithinDuration(t, t0.Add(73*time.Hour), o.deadline(o.channels[0]), 0, "the first batch is written")
			assert.WithinDuration(t, t0.Add(72*time.Hour), o.deadline(o.channels[storage.ResumeBatch]), 0, "the batch cut is not")
			require.WithinDuration(t, t0.Add(40*time.Minute), o.deadline(due), 0, "the last game is after the cut")
			o.tick(0)
			assert.WithinDuration(t, t0.Add(100*time.Minute), o.deadline(due), 0, "due before its batch: given its hour, not timed out")
			assert.Equal(t, 10, o.sent(), "the first second's reminders")
			o.tick(time.Second)
			assert.Equal(t, 20, o.sent(), "the next second's")

			o.stop()
			o.clock.Advance(time.Hour) // down another hour
			o.wrap, o.resumeErr = inner, nil
			o.start()
			o.tick(0)
			for k := 1; k < n/10+2; k++ {
				assert.LessOrEqual(t, o.sent(), 20+10*k, "outageReminders a second at most")
				o.tick(time.Second)
			}
			for i, ch := range o.channels {
				want := t0.Add(72*time.Hour + 2*time.Hour)
				if ch == due {
					want = t0.Add(40*time.Minute + 2*time.Hour)
				}
				assert.WithinDuration(t, want, o.deadline(ch), 0, "game %d got both hours once", i)
				hours := o.outageReminders(ch)
				if i < 20 {
					assert.Equal(t, []int{1, 1}, hours, "game %d: reminded in the first run, then of the second hour", i)
				} else {
					assert.Equal(t, []int{2}, hours, "game %d: one reminder of both hours", i)
				}
			}
		})
	}
}

// TestOutageTimeoutBeforeReminders: after an outage, a game whose
// deadline, given back, comes a few seconds after the restart times out
// then, while the reminders of the time given back to the other games are
// still going out at their pace.
func TestOutageTimeoutBeforeReminders(t *testing.T) {
	t.Parallel()
	for _, backend := range []string{"bbolt", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			const n = 200
			o := newOutageGames(t, backend, n, 31*time.Minute, 31*time.Minute-5*time.Second)
			short := o.channels[n-1]
			o.clock.Advance(31*time.Minute - 5*time.Second + time.Hour)
			o.start()
			require.WithinDuration(t, o.clock.Now().Add(5*time.Second), o.deadline(short), 0, "the hour given back")
			for range 5 {
				o.tick(time.Second)
			}
			_, err := o.store().Game(t.Context(), short)
			assert.ErrorIs(t, err, storage.ErrNotFound, "timed out at its deadline")
			assert.Equal(t, 60, o.sent(), "the reminders go on at their pace")
		})
	}
}

// heldGiveBack is a store whose GiveBack waits until release is closed,
// after it sends how many games it was called with to entered.
type heldGiveBack struct {
	bot.Store
	entered chan int
	release chan struct{}
}

// GiveBack implements bot.Store.
func (h heldGiveBack) GiveBack(ctx context.Context, channels []string, fn func(g *storage.Game, down time.Duration) (bool, error)) ([]string, error) {
	h.entered <- len(channels)
	<-h.release
	return h.Store.GiveBack(ctx, channels, fn)
}

// TestOutageFirstPass: after an outage, the scheduler's first pass does
// not wait for the games due before the resume reached them to be given
// their time (their GiveBack is held here): it hands them to the giver,
// which gives each its time once, storage.ResumeBatch a transaction, and
// none of them is timed out before it has it. Nobody loses on time
// because the bot was down: each then times out at its deadline given
// back, not a second earlier.
func TestOutageFirstPass(t *testing.T) {
	t.Parallel()
	for _, backend := range []string{"bbolt", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			const n, short = 40, storage.ResumeBatch + 5 // the giver's two batches
			o := newOutageGamesShort(t, backend, n, short, 40*time.Minute, 30*time.Minute, game.Auto)
			t0 := o.clock.Now()
			o.clock.Advance(90 * time.Minute) // down an hour, in which the short games' deadlines passed
			held := heldGiveBack{entered: make(chan int, n), release: make(chan struct{})}
			inner := o.wrap
			o.wrap = func(s *storage.Store) bot.Store {
				var st bot.Store = s
				if inner != nil {
					st = inner(s)
				}
				held.Store = cutResume{st, 0} // the resume reaches no game
				return held
			}
			o.resumeErr = errCut
			o.start()
			due := o.channels[n-short:]

			pass := make(chan bool, 1)
			go func() { pass <- o.bot.HandDue(t.Context()) }()
			select {
			case k := <-held.entered:
				assert.Equal(t, storage.ResumeBatch, k, "the giver's first batch")
			case <-time.After(time.Minute): // only a bound against a hang
				close(held.release)
				require.FailNow(t, "the giver never gave back the time")
			}
			select {
			case failed := <-pass:
				assert.False(t, failed, "the first pass succeeds")
			case <-time.After(time.Minute): // only a bound against a hang
				close(held.release)
				require.FailNow(t, "the first pass waits for the time to be given back")
			}
			assert.False(t, o.bot.HandDue(t.Context()), "a second pass while the giver works")
			for i, ch := range due {
				assert.WithinDuration(t, t0.Add(40*time.Minute), o.deadline(ch), 0, "game %d: not given its hour yet, and not timed out", i)
			}

			close(held.release)
			o.bot.WaitGiven()
			handed := 0
			for len(held.entered) > 0 {
				handed += <-held.entered
			}
			assert.Equal(t, short-storage.ResumeBatch, handed, "each game due handed to the giver once")
			for i, ch := range due {
				assert.WithinDuration(t, t0.Add(100*time.Minute), o.deadline(ch), 0, "game %d: given its hour", i)
			}
			for i, ch := range o.channels[:n-short] {
				assert.WithinDuration(t, t0.Add(72*time.Hour), o.deadline(ch), 0, "game %d: not due, its hour left to the resume", i)
			}

			o.tick(t0.Add(100*time.Minute - time.Second).Sub(o.clock.Now()))
			for i, ch := range due {
				_, err := o.store().Game(t.Context(), ch)
				assert.NoError(t, err, "game %d: running a second before its deadline given back", i)
			}
			o.tick(time.Second)
			for i, ch := range due {
				_, err := o.store().Game(t.Context(), ch)
				assert.ErrorIs(t, err, storage.ErrNotFound, "game %d: timed out at its deadline given back", i)
			}
		})
	}
}

// TestOutageClaim: after an outage, a win on time in a game of claims
// whose clock ran out while the bot was down cannot be claimed before the
// game has its time back: the claim gives it first, and finds nothing to
// claim.
func TestOutageClaim(t *testing.T) {
	t.Parallel()
	for _, backend := range []string{"bbolt", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			o := newOutageGamesShort(t, backend, 2, 1, 40*time.Minute, 30*time.Minute, game.Claim)
			t0 := o.clock.Now()
			o.clock.Advance(90 * time.Minute) // down an hour, in which alice's clock ran out
			inner := o.wrap
			o.wrap = func(s *storage.Store) bot.Store {
				if inner != nil {
					return cutResume{inner(s), 0}
				}
				return cutResume{s, 0} // the resume reaches no game
			}
			o.resumeErr = errCut
			o.start()
			ch := o.channels[1]
			require.WithinDuration(t, t0.Add(40*time.Minute), o.deadline(ch), 0, "not given its hour yet")

			o.refused(o.command(ch, o.bob, "claim"), "no win to claim yet")
			assert.WithinDuration(t, t0.Add(100*time.Minute), o.deadline(ch), 0, "the claim gave the game its hour first")
		})
	}
}
