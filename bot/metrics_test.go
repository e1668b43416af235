package bot_test

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/engine/game"
)

// recorder is a bot.Metrics that keeps what it is told.
type recorder struct {
	mu           sync.Mutex
	interactions map[string]int // by "kind name"
	answered     map[string]int
	moves        int
	ended        []game.Ending
	reminded     []error
}

func newRecorder() *recorder {
	return &recorder{interactions: map[string]int{}, answered: map[string]int{}}
}

func (r *recorder) Interaction(kind, name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.interactions[kind+" "+name]++
}

func (r *recorder) Answered(kind, name string, _ time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.answered[kind+" "+name]++
}

func (r *recorder) Moved(n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.moves += n
}

func (r *recorder) GameEnded(e game.Ending) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ended = append(r.ended, e)
}

func (r *recorder) Reminded(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reminded = append(r.reminded, err)
}

// TestMetrics: the bot tells its Metrics of every interaction and its
// answer, under the names of its own tables, of the moves, of reminders
// sent and failed, and of the games that end.
func TestMetrics(t *testing.T) {
	t.Parallel()
	rec := newRecorder()
	h := newHarnessWith(t, "gateway", func(h *harness) { h.manual, h.metrics = true, rec })
	ch := h.channel.ID
	g := h.challengeAndAccept()
	first, _ := h.players(g)
	h.command(ch, first, "move", discordtest.StringOption("cell", "D4"))
	h.boardAt(ch, 1)
	old := h.dc.Button(h.board(ch).ID, first, "kulami:nosuchaction:"+ch+":1")
	h.send(old)
	h.dc.WaitResponse(t, old.ID)
	// The answer is counted once Discord has taken it, just after the
	// fake saw it.
	require.Eventually(t, func() bool {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		return rec.answered["component other"] == 1
	}, hung, time.Millisecond, "the answer to the old button is counted")

	h.tick(36 * time.Hour)
	h.dc.DeleteChannel(ch)
	h.tick(29 * time.Hour) // the second reminder finds the channel gone: the game is abandoned

	rec.mu.Lock()
	defer rec.mu.Unlock()
	want := map[string]int{"command challenge": 1, "component accept": 1, "command move": 1, "component other": 1}
	assert.Equal(t, want, rec.interactions, "an unknown action is counted as other")
	assert.Equal(t, want, rec.answered, "each was answered")
	assert.Equal(t, 1, rec.moves)
	if assert.Len(t, rec.reminded, 2) {
		assert.NoError(t, rec.reminded[0], "the first reminder was sent")
		assert.Error(t, rec.reminded[1], "the second could not be")
	}
	assert.Equal(t, []game.Ending{game.Abandoned}, rec.ended)
}
