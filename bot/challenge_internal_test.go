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
// hangs found it. Discord holds the post while the interaction's time
// runs out (a ManualTimer) and until the client gives up on it (the
// test's cue), however slow the machine.
func TestWithdrawOutlivesTheInteraction(t *testing.T) {
	store, err := storage.Open(filepath.Join(t.TempDir(), "kulami.db"), storage.Options{})
	require.NoError(t, err)
	defer store.Close()
	dc := discordtest.New(t, discordtest.CollectViolations())
	channel := dc.AddChannel("games").ID
	s, err := NewSession(dc.Token(), dc.APIURL())
	require.NoError(t, err)
	const post = "/channels/{channel_id}/messages"
	timeouts := NewCuedTimeouts(RequestTo("POST", post))
	s.Client.Transport = timeouts.Wrap(s.Client.Transport)
	held := dc.Hold("POST", post, 1)
	defer held.Release()

	log := slog.New(slog.DiscardHandler)
	st := deadlineStore{interactionStore: store}
	out, langs := &outbound{session: s, log: log}, &locales{store: st, log: log}
	cl := &challenges{store: st, clock: systemClock{}, log: log, wake: make(wakeup, 1), out: out, langs: langs,
		notices: &notices{settings: st, langs: langs, clock: systemClock{}, out: out, log: log}}
	c := &interaction{i: &discordgo.Interaction{GuildID: dc.GuildID(), ChannelID: channel}}
	const answerWithin = 125 * time.Millisecond
	timer := NewManualTimer()
	var stop func()
	c.ctx, stop = withStoreDeadlines(t.Context(), c, timer, answerWithin)
	defer stop()
	cc, err := challenge.New(challenge.Config{
		From: game.Player{UserID: "100", Name: "alice"}, To: game.Player{UserID: "200", Name: "bob"},
		Layout: engine.Square(), Rules: engine.Full, MoveTime: time.Hour, Open: time.Hour,
	}, time.Now())
	require.NoError(t, err)
	ch := &storage.Challenge{GuildID: dc.GuildID(), ChannelID: channel, Challenge: *cc}

	opened := make(chan error, 1)
	go func() {
		opened <- cl.openChallenge(c, ch, func(i18n.Lang) message { return message{content: "challenge"} }, "sent")
	}()
	held.Wait(t)                        // the challenge is stored; Discord holds its post
	timer.Advance(answerWithin * 4 / 5) // the interaction's time for the database runs out
	require.Equal(t, 1, timeouts.Expire(), "the post outlasts the bot's client")
	err = <-opened
	require.Error(t, err, "the post failed")
	_, err = store.Challenge(t.Context(), channel)
	assert.ErrorIs(t, err, storage.ErrNotFound, "the challenge is withdrawn")
}
