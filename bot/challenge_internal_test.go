package bot

import (
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/challenge"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
)

// TestWithdrawOutlivesTheInteraction: a challenge whose message Discord
// failed after the interaction's time for the database ran out (a post
// that hung until the bot's client gave up) is withdrawn all the same,
// so that the channel is free for the next challenge, rather than busy
// with a challenge nobody sees until it expires. The load test's Discord
// hangs found it.
func TestWithdrawOutlivesTheInteraction(t *testing.T) {
	store, err := storage.Open(filepath.Join(t.TempDir(), "kulami.db"), storage.Options{})
	require.NoError(t, err)
	defer store.Close()
	dc := discordtest.New(t, discordtest.CollectViolations())
	channel := dc.AddChannel("games").ID
	s, err := NewSession(dc.Token(), dc.APIURL())
	require.NoError(t, err)
	s.Client.Timeout = 300 * time.Millisecond
	dc.Delay("POST", "/channels/{channel_id}/messages", 600*time.Millisecond, 1) // the post outlasts the client

	log := slog.New(slog.DiscardHandler)
	st := deadlineStore{store}
	cl := &challenges{store: st, clock: systemClock{}, log: log, wake: make(wakeup, 1),
		out: &outbound{session: s, log: log}, langs: &locales{store: st, log: log}}
	c := &interaction{i: &discordgo.Interaction{GuildID: dc.GuildID(), ChannelID: channel}}
	// The interaction's storage calls have 100 ms (4/5 of 125 ms): the
	// challenge is stored in time, the post takes longer.
	var stop func()
	c.ctx, stop = withStoreDeadlines(t.Context(), c, systemTimer{}, 125*time.Millisecond)
	defer stop()
	cc, err := challenge.New(challenge.Config{
		From: game.Player{UserID: "100", Name: "alice"}, To: game.Player{UserID: "200", Name: "bob"},
		Layout: engine.Square(), Rules: engine.Full, MoveTime: time.Hour, Open: time.Hour,
	}, time.Now())
	require.NoError(t, err)
	ch := &storage.Challenge{GuildID: dc.GuildID(), ChannelID: channel, Challenge: *cc}

	err = cl.openChallenge(c, ch, func(i18n.Lang) message { return message{content: "challenge"} }, "sent")
	require.Error(t, err, "the post failed")
	_, err = store.Challenge(t.Context(), channel)
	assert.ErrorIs(t, err, storage.ErrNotFound, "the challenge is withdrawn")
}
