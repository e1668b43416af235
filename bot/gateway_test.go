package bot_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot"
	"github.com/kulami/kulami/bot/discordtest"
)

// runGateway runs a bot's gateway connection against dc and returns where its result comes.
func runGateway(t *testing.T, dc *discordtest.Server) <-chan error {
	t.Helper()
	s, err := bot.NewSession(dc.Token(), dc.APIURL())
	require.NoError(t, err)
	b := bot.New(s, bot.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	ctx, cancel := context.WithCancel(context.Background())
	errc, done := make(chan error, 1), make(chan struct{})
	go func() {
		defer close(done)
		errc <- b.RunGateway(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(hung):
			t.Error("RunGateway did not return after its context was cancelled")
		}
	})
	return errc
}

// TestRunGatewayFatalClose checks that a fatal close of the gateway, at the start or on a reconnection,
// ends RunGateway with an error naming the cause, instead of reconnecting for ever.
func TestRunGatewayFatalClose(t *testing.T) {
	t.Parallel()
	causes := map[int]string{
		4004: "authentication failed",
		4010: "invalid shard",
		4011: "sharding required",
		4012: "invalid API version",
		4013: "invalid intents",
		4014: "disallowed intents",
	}
	require.Len(t, causes, len(discordtest.FatalCloseCodes))
	for _, code := range discordtest.FatalCloseCodes {
		for _, running := range []bool{false, true} {
			name := strconv.Itoa(code) + " at the start"
			if running {
				name = strconv.Itoa(code) + " while running"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				dc := discordtest.New(t)
				if !running {
					dc.CloseGateway(code)
				}
				errc := runGateway(t, dc)
				if running {
					dc.WaitReady(t)
					dc.CloseGateway(code)
				}
				var err error
				select {
				case err = <-errc:
				case <-time.After(hung):
					t.Fatal("RunGateway goes on after a fatal close")
				}
				var closed *bot.GatewayClosedError
				require.True(t, errors.As(err, &closed), "error %v", err)
				assert.Equal(t, code, closed.Code)
				assert.Contains(t, err.Error(), "code "+strconv.Itoa(code))
				assert.Contains(t, err.Error(), causes[code])
			})
		}
	}
}

// TestRunGatewayReconnects checks that the bot reconnects by itself when Discord asks it to, or
// closes the connection with a code that allows it, and goes on answering.
func TestRunGatewayReconnects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		drop func(dc *discordtest.Server)
	}{
		{"reconnect request", func(dc *discordtest.Server) { dc.Reconnect() }},
		{"unknown error", func(dc *discordtest.Server) { dc.CloseGateway(4000) }},
		{"session timed out", func(dc *discordtest.Server) { dc.CloseGateway(4009) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, "gateway")
			tc.drop(h.dc)
			require.Eventually(t, func() bool {
				return strings.Contains(h.logs.String(), "reconnected to the Discord gateway")
			}, hung, 10*time.Millisecond)
			i := h.command(h.channel.ID, h.alice, "help")
			r := h.dc.WaitResponse(t, i.ID)
			assert.True(t, r.Content != "" || len(r.Embeds) > 0, "the bot answers after the reconnection")
		})
	}
}
