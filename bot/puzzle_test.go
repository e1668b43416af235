package bot_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/puzzle"
	"github.com/kulami/kulami/storage"
)

var (
	shippedOnce sync.Once
	shippedSet  []puzzle.Puzzle
)

// shippedPuzzles returns the shipped puzzle set, read once.
func shippedPuzzles(tb testing.TB) []puzzle.Puzzle {
	tb.Helper()
	shippedOnce.Do(func() {
		var err error
		shippedSet, err = puzzle.Shipped()
		require.NoError(tb, err)
	})
	return shippedSet
}

// threePuzzles is a set of three shipped puzzles whose starting ratings
// make a new player meet them in order: a one-move puzzle at 1500 (to
// solve), another at 1700 (to fail: the solver's rating is near it after
// the first) and a puzzle of several moves at 1300.
func threePuzzles(tb testing.TB) []puzzle.Puzzle {
	tb.Helper()
	var one, two, multi *puzzle.Puzzle
	all := shippedPuzzles(tb)
	for i := range all {
		p := &all[i]
		switch {
		case p.Moves() == 1 && one == nil:
			one = p
		case p.Moves() == 1 && two == nil:
			two = p
		case p.Moves() >= 2 && multi == nil:
			multi = p
		}
	}
	require.NotNil(tb, multi)
	out := []puzzle.Puzzle{*one, *two, *multi}
	for i, r := range []int{1500, 1700, 1300} {
		out[i].Rating = r
	}
	return out
}

// puzzleCommand runs /puzzle sub as user and returns the interaction
// once answered.
func (h *harness) puzzleCommand(user *discordgo.User, sub string, opts ...*discordgo.ApplicationCommandInteractionDataOption) *discordgo.Interaction {
	h.t.Helper()
	return h.puzzleCommandIn(h.channel.ID, user, sub, opts...)
}

// puzzleCommandIn is puzzleCommand in the channel given.
func (h *harness) puzzleCommandIn(channel string, user *discordgo.User, sub string, opts ...*discordgo.ApplicationCommandInteractionDataOption) *discordgo.Interaction {
	h.t.Helper()
	i := h.dc.Command(channel, user, "puzzle", discordtest.Subcommand(sub, opts...))
	h.resolve(i, opts)
	h.send(i)
	h.dc.WaitResponse(h.t, i.ID)
	return i
}

// puzzleMessage waits for the puzzle message that answered i (a command
// or a button) and returns it: the response, or a follow-up if the bot
// deferred for a slow answer.
func (h *harness) puzzleMessage(i *discordgo.Interaction) *discordtest.Message {
	h.t.Helper()
	return messageAfter(h.t, h.dc, i, i.ChannelID, "the puzzle", func(m *discordtest.Message) bool {
		return m.Ephemeral() && len(m.Files) == 1 && m.Files[0].Name == "puzzle.png"
	})
}

// nextPuzzle runs /puzzle next as user and returns the puzzle message and
// its puzzle.
func (h *harness) nextPuzzle(user *discordgo.User) (*discordtest.Message, *puzzle.Puzzle) {
	h.t.Helper()
	m := h.puzzleMessage(h.puzzleCommand(user, "next"))
	return m, h.currentPuzzle(user)
}

// newPuzzleHarness is newManualHarness with the puzzle set set.
func newPuzzleHarness(t testing.TB, mode string, set []puzzle.Puzzle) *harness {
	t.Helper()
	return newHarnessWith(t, mode, func(h *harness) {
		h.manual = true
		h.puzzles = func() ([]puzzle.Puzzle, error) { return set, nil }
	})
}

// puzzleMenu returns the custom ID of the one hole menu of a puzzle
// message and its values.
func puzzleMenu(tb testing.TB, m *discordtest.Message) (string, []string) {
	tb.Helper()
	ms := menus(m)
	require.Len(tb, ms, 1, "one menu of holes: %q", m.Content)
	for id, values := range ms {
		return id, values
	}
	return "", nil
}

// playPuzzle picks hole in the menu of the puzzle message m as user and
// waits for the message to be edited once more.
func (h *harness) playPuzzle(m *discordtest.Message, user *discordgo.User, hole string) *discordtest.Message {
	h.t.Helper()
	id, _ := puzzleMenu(h.t, m)
	edits := m.Edits
	h.pick(m.ID, user, id, hole)
	var now *discordtest.Message
	h.dc.WaitUntil(h.t, "the puzzle message edited", func() bool {
		now, _ = h.dc.Message(m.ID)
		return now.Edits > edits
	})
	return now
}

// currentPuzzle returns the puzzle of the user's attempt under way.
func (h *harness) currentPuzzle(user *discordgo.User) *puzzle.Puzzle {
	h.t.Helper()
	try, err := h.store.PuzzleTry(h.t.Context(), user.ID)
	require.NoError(h.t, err)
	e, err := h.store.Puzzle(h.t.Context(), try.PuzzleID)
	require.NoError(h.t, err)
	p, err := puzzle.FromJSON(e.Puzzle)
	require.NoError(h.t, err)
	return &p
}

// wrongHole returns a legal hole of p's position that is not its first
// solution move.
func wrongHole(tb testing.TB, p *puzzle.Puzzle) string {
	tb.Helper()
	pos, err := p.Position()
	require.NoError(tb, err)
	for _, c := range pos.Legal().Cells(pos.Layout()) {
		if c != p.Solution[0] {
			return c.String()
		}
	}
	tb.Fatalf("puzzle %s has one legal hole", p.ID)
	return ""
}

// TestPuzzleSolveThree: a player solves a one-move puzzle, fails one and
// solves one of several moves, each privately in one message that goes
// on move after move (across a restart); each attempt moves their rating
// and the puzzle's the right way, and the streak.
func TestPuzzleSolveThree(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			set := threePuzzles(t)
			h := newPuzzleHarness(t, mode, set)
			ctx := t.Context()
			rating := func() float64 {
				p, err := h.store.PuzzleProfile(ctx, h.alice.ID)
				require.NoError(t, err)
				return p.Rating.Rating
			}
			puzzleRating := func(id string) float64 {
				e, err := h.store.Puzzle(ctx, id)
				require.NoError(t, err)
				return e.Rating.Rating
			}

			// One move, solved.
			m, p := h.nextPuzzle(h.alice)
			assert.True(t, m.Ephemeral(), "only the solver sees the puzzle")
			assert.Contains(t, m.Content, "find the one move that wins")
			require.Equal(t, set[0].ID, p.ID)
			m = h.playPuzzle(m, h.alice, p.Solution[0].String())
			assert.Contains(t, m.Content, "Solved!")
			assert.Contains(t, m.Content, "streak 1")
			assert.Empty(t, menus(m), "no holes to pick once it ended")
			assert.Greater(t, rating(), 1500.0, "solving raises the player")
			assert.Less(t, puzzleRating(p.ID), 1500.0, "and lowers the puzzle")
			after1 := rating()

			// One move, failed: the answer shows the refutation and the
			// solution.
			m, p = h.nextPuzzle(h.alice)
			require.Equal(t, set[1].ID, p.ID)
			m = h.playPuzzle(m, h.alice, wrongHole(t, p))
			assert.Contains(t, m.Content, "is not it")
			assert.Contains(t, m.Content, "The solution: "+p.SolutionText())
			assert.Contains(t, m.Content, "streak ended")
			assert.Less(t, rating(), after1, "failing lowers the player")
			assert.Greater(t, puzzleRating(p.ID), 1700.0, "and raises the puzzle")
			after2 := rating()

			// Several moves: each right move plays the defence and goes
			// on in the same message, until the last.
			m, p = h.nextPuzzle(h.alice)
			require.Equal(t, set[2].ID, p.ID)
			first := m.ID
			for k := 0; k < len(p.Solution); k += 2 {
				m = h.playPuzzle(m, h.alice, p.Solution[k].String())
				assert.Equal(t, first, m.ID, "the same message goes on")
				if k+1 < len(p.Solution) {
					assert.Contains(t, m.Content, "is right! The reply: "+strings.ToUpper(p.Solution[k+1].String()))
				}
				if k == 0 {
					h.restart() // the attempt under way is stored: the message goes on after a restart
				}
			}
			assert.Contains(t, m.Content, "Solved!")
			assert.Greater(t, rating(), after2, "solving raises the player again")
			prof, err := h.store.PuzzleProfile(ctx, h.alice.ID)
			require.NoError(t, err)
			assert.Equal(t, 3, prof.Attempts)
			assert.Equal(t, 2, prof.Solved)
			assert.Equal(t, 1, prof.Streak)
			assert.Equal(t, 1, prof.BestStreak)

			// The stats and the server's puzzle leaderboard.
			i := h.puzzleCommand(h.alice, "stats")
			r := h.dc.WaitResponse(t, i.ID)
			text := embedText(r)
			assert.Contains(t, text, "Puzzles — alice")
			assert.Contains(t, text, "Puzzle leaderboard of this server")
			assert.Contains(t, text, "**alice**")
			assert.Empty(t, h.dc.Violations())
		})
	}
}

// TestPuzzleRefusals: a stale puzzle message, someone else's puzzle, an
// illegal hole (forged custom IDs and values), a finished daily: each is
// refused privately in the reader's language; and a set that fails to
// load leaves the bot running without puzzles.
func TestPuzzleRefusals(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			set := threePuzzles(t)
			h := newPuzzleHarness(t, mode, set)
			refusal := func(i *discordgo.Interaction) string {
				t.Helper()
				var text string
				h.dc.WaitUntil(t, "a private refusal", func() bool {
					for _, m := range h.dc.Messages(h.channel.ID) {
						if m.Interaction != nil && m.Interaction.ID == i.ID || m.Ephemeral() && m.InteractionMetadata != nil && m.InteractionMetadata.ID == i.ID {
							text = m.Content
						}
					}
					r := h.dc.WaitResponse(t, i.ID)
					if text == "" && r.Type == discordgo.InteractionResponseChannelMessageWithSource {
						text = r.Content
					}
					return text != ""
				})
				return text
			}

			m, p := h.nextPuzzle(h.alice)
			menu, _ := puzzleMenu(t, m)

			// Someone else's puzzle: bob sends alice's menu.
			i := h.pick(m.ID, h.bob, menu, p.Solution[0].String())
			assert.Contains(t, refusal(i), "someone else's")

			// An illegal hole, forged: not in the menu.
			pos, err := p.Position()
			require.NoError(t, err)
			var taken string
			for h := range engine.Hole(engine.NumHoles) {
				if !pos.Legal().Has(h) {
					taken = pos.Layout().Cell(h).String()
					break
				}
			}
			require.NotEmpty(t, taken)
			i = h.pick(m.ID, h.alice, menu, taken)
			assert.Contains(t, refusal(i), "is not a legal hole")
			i = h.pick(m.ID, h.alice, menu, "Z99")
			assert.Contains(t, refusal(i), "is not a legal hole")

			// A stale message: a menu of another step.
			stale := strings.Replace(menu, fmt.Sprintf(":%s:", p.ID), ":000000000000:", 1)
			i = h.pick(m.ID, h.alice, stale, p.Solution[0].String())
			assert.Contains(t, refusal(i), "out of date")

			// In French, for a French reader.
			fr := h.dc.Select(m.ID, h.bob, menu, p.Solution[0].String())
			fr.Locale = discordgo.French
			h.send(fr)
			assert.Contains(t, refusal(fr), "quelqu’un d’autre")

			// The puzzle goes on: the refusals changed nothing.
			m = h.playPuzzle(m, h.alice, p.Solution[0].String())
			assert.Contains(t, m.Content, "Solved!")
			// Its menu, clicked again, is stale.
			i = h.pick(m.ID, h.alice, menu, p.Solution[0].String())
			assert.Contains(t, refusal(i), "out of date")

			// The daily puzzle, failed, then asked again: refused with the
			// solution.
			i = h.puzzleCommand(h.bob, "daily")
			d := h.puzzleMessage(i)
			assert.Contains(t, d.Content, "Daily puzzle")
			dp := h.currentPuzzle(h.bob)
			h.playPuzzle(d, h.bob, wrongHole(t, dp))
			i = h.puzzleCommand(h.bob, "daily")
			text := refusal(i)
			assert.Contains(t, text, "You tried today's puzzle already")
			assert.Contains(t, text, dp.SolutionText())
			assert.Empty(t, h.dc.Violations())
		})
	}
}

// TestPuzzleSetFailsToLoad: a broken set is logged naming its file and
// line, and the bot runs on: the puzzle commands say there are none,
// the rest works.
func TestPuzzleSetFailsToLoad(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, "http", func(h *harness) {
		h.manual = true
		h.puzzles = func() ([]puzzle.Puzzle, error) {
			_, err := puzzle.Read(strings.NewReader("{\"format\":\"kulami-puzzles\",\"version\":1}\n{\"id\":\"x\"}\n"))
			return nil, fmt.Errorf("%s: %w", puzzle.ShippedFile, err)
		}
	})
	assert.Contains(t, h.logs.String(), "engine/puzzle/shipped.jsonl: line 2:")
	i := h.puzzleCommand(h.alice, "next")
	assert.Contains(t, h.reply(i), "No puzzles are available")
	assert.Contains(t, embedText(h.dc.WaitResponse(t, h.command(h.channel.ID, h.alice, "help").ID)), "/puzzle next", "the bot runs on")
	assert.Empty(t, h.dc.Violations())
}

// TestPuzzleLeaderboardPages: the server's puzzle leaderboard under
// /puzzle stats pages with Next and Previous, by the marks of its ranks.
func TestPuzzleLeaderboardPages(t *testing.T) {
	t.Parallel()
	set := threePuzzles(t)
	h := newPuzzleHarness(t, "http", set)
	ctx := t.Context()
	for n := range 12 {
		user := fmt.Sprint(9100 + n)
		require.NoError(t, h.store.StartPuzzle(ctx, &storage.PuzzleTry{UserID: user, PuzzleID: set[0].ID}))
		_, err := h.store.FinishPuzzle(ctx, storage.PuzzleResult{UserID: user, Name: fmt.Sprintf("player%02d", n), GuildID: h.dc.GuildID(),
			PuzzleID: set[0].ID, Solved: n%2 == 0})
		require.NoError(t, err)
	}
	i := h.puzzleCommand(h.alice, "stats")
	r := h.dc.WaitResponse(t, i.ID)
	first := embedText(r)
	assert.Contains(t, first, "You have not finished a puzzle yet")
	assert.Contains(t, first, "🥇 **player10**", "the solvers first (the puzzle's rating falls with each, so the last gains most)")
	assert.NotContains(t, first, "player01", "the first of the failures fell lowest")
	require.NotEmpty(t, r.Embeds)
	top := r.Embeds[len(r.Embeds)-1] // after the caller's own stats
	require.NotNil(t, top.Footer)
	assert.Equal(t, "Page 1 of 2 · 12 players · puzzles solved of those tried · ? = provisional rating (few puzzles)", top.Footer.Text,
		"the puzzle leaderboard's own footer: no wins–losses–draws")
	m := h.dc.WaitOriginal(t, i.ID, func(*discordtest.Message) bool { return true })
	next := buttons(m.Components)["Next"]
	require.NotEmpty(t, next)
	h.click(m.ID, h.alice, next)
	h.dc.WaitUntil(t, "the second page", func() bool {
		m, _ = h.dc.Message(m.ID)
		return len(m.Embeds) == 1 && strings.Contains(m.Embeds[0].Description, "player01")
	})
	assert.Contains(t, m.Embeds[0].Description, "`11.`")
	h.click(m.ID, h.alice, buttons(m.Components)["Previous"])
	h.dc.WaitUntil(t, "the first page again", func() bool {
		m, _ = h.dc.Message(m.ID)
		return len(m.Embeds) == 1 && strings.Contains(m.Embeds[0].Description, "🥇 **player10**")
	})
	assert.Empty(t, h.dc.Violations())
}

// TestPuzzleEverywhere: /puzzle next, daily and stats work where the bot
// is no member (a DM, a group DM, a server without the bot, one that
// forbids external apps and so sees every answer ephemeral), answered
// only by interaction answers that Discord allows there: a puzzle solved
// there counts on the puzzle leaderboard of everywhere, which stats
// shows there, and not on the server's.
func TestPuzzleEverywhere(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			set := threePuzzles(t)
			h := newPuzzleHarness(t, mode, set)
			places := []struct {
				name string
				ch   *discordgo.Channel
			}{
				{"DM", h.dc.AddPrivateChannel(h.alice, h.bob)},
				{"group DM", h.dc.AddPrivateChannel(h.alice, h.bob, h.carol)},
				{"server without the bot", h.dc.AddForeignChannel("elsewhere", true)},
				{"server that forbids external apps", h.dc.AddForeignChannel("strict", false)},
			}
			for _, place := range places {
				i := h.puzzleCommandIn(place.ch.ID, h.carol, "stats")
				assert.Contains(t, embedText(h.dc.WaitResponse(t, i.ID)), "Nobody here has finished a puzzle yet", place.name)
			}

			// next, solved in the DM.
			m := h.puzzleMessage(h.puzzleCommandIn(places[0].ch.ID, h.alice, "next"))
			assert.True(t, m.Ephemeral(), "only the solver sees the puzzle")
			p := h.currentPuzzle(h.alice)
			require.Equal(t, set[0].ID, p.ID)
			m = h.playPuzzle(m, h.alice, p.Solution[0].String())
			assert.Contains(t, m.Content, "Solved!")
			prof, err := h.store.PuzzleProfile(t.Context(), h.alice.ID)
			require.NoError(t, err)
			assert.Equal(t, []string{everywhere}, prof.Guilds, "on the leaderboard of everywhere only")

			// daily, in the group DM.
			m = h.puzzleMessage(h.puzzleCommandIn(places[1].ch.ID, h.bob, "daily"))
			assert.True(t, m.Ephemeral())
			assert.Len(t, menus(m), 1, "a menu of holes")

			// stats, in each place: the leaderboard of everywhere.
			for _, place := range places {
				i := h.puzzleCommandIn(place.ch.ID, h.carol, "stats")
				text := embedText(h.dc.WaitResponse(t, i.ID))
				assert.Contains(t, text, "Puzzle leaderboard: everywhere", place.name)
				assert.Contains(t, text, "**alice**", place.name)
			}
			i := h.puzzleCommand(h.carol, "stats")
			text := embedText(h.dc.WaitResponse(t, i.ID))
			assert.Contains(t, text, "Puzzle leaderboard of this server")
			assert.NotContains(t, text, "**alice**", "the server's own leaderboard")
			assert.Empty(t, h.dc.Violations())
		})
	}
}
