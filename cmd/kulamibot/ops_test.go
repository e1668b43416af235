package main

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot"
	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/draw"
	"github.com/kulami/kulami/storage"
)

// TestReady: the bot is ready when its storage answers and it takes
// interactions (the gateway connected, or the HTTP server serving); else
// /readyz says why not.
func TestReady(t *testing.T) {
	dc := discordtest.New(t)
	tests := []struct {
		name    string
		mode    string
		serving bool
		closed  bool // the store is closed
		want    string
	}{
		{"http mode, serving", "http", true, false, ""},
		{"http mode, not serving", "http", false, false, "the interactions endpoint is not serving"},
		{"gateway not connected", "gateway", false, false, "the Discord gateway is not connected"},
		{"storage closed", "http", true, true, "storage: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store, err := storage.Open(filepath.Join(t.TempDir(), "kulami.db"), storage.Options{})
			require.NoError(t, err)
			t.Cleanup(func() { store.Close() })
			s := dc.Session()
			o := newOps(s, tt.mode)
			o.watch(bot.New(s, bot.Options{Store: store}), draw.NewRenderer(draw.Config{}), store)
			o.serving.Store(tt.serving)
			if tt.closed {
				require.NoError(t, store.Close())
			}
			ctx, cancel := context.WithTimeout(t.Context(), hung)
			defer cancel()
			err = o.ready(ctx)
			if tt.want == "" {
				assert.NoError(t, err)
				return
			}
			assert.ErrorContains(t, err, tt.want)
		})
	}
}
