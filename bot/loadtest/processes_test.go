package loadtest

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/postgres"
)

// TestSeveralProcesses runs kulamibot as several processes on one
// PostgreSQL database, behind a round-robin load balancer that leaves out
// a dead process:
//   - a whole game whose interactions alternate between two processes,
//     one of them killed with SIGKILL mid-game, finished on the other,
//     with every move stored once and in order;
//   - a reminder that fell due while a process was down, with two
//     processes starting at once and both looking at it: it is sent
//     exactly once.
func TestSeveralProcesses(t *testing.T) {
	r := newRunner(t, Config{Games: 1, Duration: boardWait, Layouts: []string{"square"}, Typed: 0.25, Processes: 2, Backend: "postgres", Bot: *botBin})
	r.env["KULAMI_LOG_LEVEL"] = "debug"
	killed := r.startBot(t)
	r.startBot(t)
	r.deadline = time.Now().Add(10 * boardWait)
	r.rec = newRecorder(r.deadline)
	tb := r.tables[0]

	g, board, ok := tb.begin()
	require.True(t, ok, "the game starts: %v", r.rec.failures)
	for k := 0; !isOver(board); k++ {
		if k == 10 {
			require.NoError(t, killed.kill())
		}
		board, ok = tb.move(g, board)
		require.True(t, ok, "move %d: %v", k+1, r.rec.failures)
	}
	g.over = true
	assert.Greater(t, len(g.cells), 10, "the game went on after the kill")
	assert.Empty(t, r.verify(t.Context(), &Report{}), "every move stored once, in order")
	assert.Empty(t, r.retiredOnce(r.tables), "every old board edited once, whichever process posted it")

	// The next game: its first reminder falls due while only one process
	// runs (moved there through the store, as if 36 hours had passed).
	_, _, ok = tb.begin()
	require.True(t, ok, "the second game starts: %v", r.rec.failures)
	s, err := postgres.Open(r.db, storage.Options{})
	require.NoError(t, err)
	defer s.Close()
	_, err = s.UpdateGame(t.Context(), tb.channel, func(sg *storage.Game) error {
		st := sg.State()
		require.Equal(t, 72*time.Hour, st.MoveTime, "the default move time")
		st.Deadline = time.Now().Add(st.MoveTime/2 - time.Minute) // the first reminder: half the time left
		sg.Game, err = game.Restore(st)
		return err
	})
	require.NoError(t, err)
	require.Empty(t, reminders(r), "no reminder before it is due")
	// Two processes start at once; each looks at what is due as it starts.
	starting := []*botProcess{r.startBot(t), r.startBot(t)}
	for _, p := range starting {
		waitLog(t, p, "scheduler looks at what is due")
	}
	r.dc.WaitUntil(t, "a reminder", func() bool { return len(reminders(r)) > 0 })
	assert.Len(t, reminders(r), 1, "one reminder, whichever process sent it")

	for _, v := range r.dc.Violations() {
		assert.True(t, isLateAnswer(v), "Discord would refuse: %v", v)
	}
}

// reminders are the reminders the bot sent to the first table's channel.
func reminders(r *runner) []string {
	var texts []string
	for _, m := range r.dc.NotifiedIn(r.tables[0].channel) {
		if strings.Contains(m.Content, "⏰") {
			texts = append(texts, m.Content)
		}
	}
	return texts
}

// waitLog waits until the process has logged a line with text.
func waitLog(t *testing.T, p *botProcess, text string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		if _, n := p.logLines(0, text); n > 0 {
			return
		}
		require.True(t, time.Now().Before(deadline), "the bot logged no %q within a minute; its log ends:\n%s", text, p.logTail(20))
		time.Sleep(50 * time.Millisecond)
	}
}
