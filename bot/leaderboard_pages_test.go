package bot_test

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/rating"
	"github.com/kulami/kulami/storage"
)

// boldNames returns the names a leaderboard page shows, in order.
func boldNames(description string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`\*\*(.+?)\*\*`).FindAllStringSubmatch(description, -1) {
		out = append(out, m[1])
	}
	return out
}

// TestLeaderboardPagesFromMarks: the Next and Previous buttons of a
// leaderboard, all-time or of a season, carry the mark of the last or
// first player shown and turn to the pages that page numbers give; the
// buttons of leaderboards posted before (by page number) still work; a
// button whose mark is not one, or names no player of that board, is
// refused as a leaderboard that is gone.
func TestLeaderboardPagesFromMarks(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newManualHarness(t, mode)
			now := h.clock.Now()
			for i := range 24 { // 24 winners and bob: three pages
				h.seedGame(h.store, h.dc.AddUser(fmt.Sprintf("p%02d", i)), h.bob, engine.Black, now.Add(-time.Duration(i+1)*time.Minute))
			}
			boards := []struct {
				name   string
				opts   []*discordgo.ApplicationCommandInteractionDataOption
				season storage.Season
			}{
				{"all-time", nil, 0},
				{"season", []*discordgo.ApplicationCommandInteractionDataOption{discordtest.StringOption("season", "current")}, rating.SeasonOf(now)},
			}
			for _, b := range boards {
				t.Run(b.name, func(t *testing.T) {
					all, total, err := h.store.Leaderboard(t.Context(), h.dc.GuildID(), storage.Human, 0, 100)
					if b.season != 0 {
						all, total, err = h.store.SeasonLeaderboard(t.Context(), h.dc.GuildID(), b.season, storage.Human, 0, 100)
					}
					require.NoError(t, err)
					require.Equal(t, 25, total)
					want := func(p int) []string { // the names of page p (from 1)
						var out []string
						for _, pr := range all[10*(p-1) : min(10*p, len(all))] {
							out = append(out, pr.Name)
						}
						return out
					}
					i := h.command(h.channel.ID, h.carol, "leaderboard", b.opts...)
					r := h.dc.WaitResponse(t, i.ID)
					msg := h.dc.WaitOriginal(t, i.ID, func(*discordtest.Message) bool { return true })
					shows := func(r *discordtest.Response, p int) {
						t.Helper()
						require.Len(t, r.Embeds, 1)
						assert.Equal(t, want(p), boldNames(r.Embeds[0].Description), "page %d", p)
						assert.Contains(t, r.Embeds[0].Description, fmt.Sprintf("`%2d.`", 10*(p-1)+4), "ranks numbered from the page's first")
						assert.Contains(t, r.Embeds[0].Footer.Text, fmt.Sprintf("Page %d of 3", p))
					}
					turn := func(r *discordtest.Response, label, action string, p int) *discordtest.Response {
						t.Helper()
						b := buttonNamed(r.Components, label)
						require.NotNil(t, b)
						assert.True(t, strings.HasPrefix(b.CustomID, "kulami:"+action+":"), "%s: %s", label, b.CustomID)
						assert.LessOrEqual(t, len(b.CustomID), 100)
						r = h.dc.WaitResponse(t, h.click(msg.ID, h.alice, b.CustomID).ID)
						assert.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Type)
						shows(r, p)
						return r
					}
					shows(r, 1)
					r = turn(r, "Next", "leaderboard-next", 2)
					r = turn(r, "Next", "leaderboard-next", 3)
					assert.True(t, buttonNamed(r.Components, "Next").Disabled)
					r = turn(r, "Previous", "leaderboard-prev", 2)
					turn(r, "Previous", "leaderboard", 1)

					board := uint64(b.season)<<8 | uint64(storage.Human)
					old := fmt.Sprintf("kulami:leaderboard:%s:%d:2", h.dc.GuildID(), board)
					shows(h.dc.WaitResponse(t, h.click(msg.ID, h.alice, old).ID), 3)

					stranger := all[0]
					stranger.UserID = "999"
					for _, forged := range []string{
						fmt.Sprintf("kulami:leaderboard-next:%s:%d:1", "!!", board),
						fmt.Sprintf("kulami:leaderboard-next:%s:%d:1", storage.MarkOf(&stranger), board),
						fmt.Sprintf("kulami:leaderboard-prev:%s:%d:1", storage.MarkOf(&all[12]), board|uint64(storage.AI)),
						fmt.Sprintf("kulami:leaderboard-next:%s:%d:1", storage.MarkOf(&all[3]), uint64(1)<<40),
					} {
						h.refused(h.click(msg.ID, h.alice, forged), "That leaderboard does not exist any more")
					}
				})
			}
		})
	}
}

// TestLeaderboardBadPage checks that a leaderboard click whose custom ID
// carries a page no pager writes (negative, past what an offset can hold,
// not a number) is refused like any stale button: ephemeral, in the
// reader's words, and nothing logged as an error.
func TestLeaderboardBadPage(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, mode)
			g := h.challengeAndAccept()
			first, _ := h.players(g)
			h.send(h.command(h.channel.ID, first, "resign"))
			board := h.boardAt(h.channel.ID, 0)
			guild := h.dc.GuildID()
			for _, page := range []string{"-1", "-9223372036854775808", fmt.Sprint(math.MaxInt64), fmt.Sprint(math.MaxInt64/10 + 1), "99999999999999999999", "x", ""} {
				t.Run(page, func(t *testing.T) {
					id := fmt.Sprintf("kulami:leaderboard:%s:0:%s", guild, page)
					h.refused(h.click(board.ID, h.carol, id))
				})
			}
			assert.NotContains(t, h.logs.String(), "level=ERROR", "a bad page is no error of the bot")
		})
	}
}
