package bot

import (
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHTTPResponse checks the hand-off of an interaction's first response
// to its HTTP request: written once, never after the request is over.
func TestHTTPResponse(t *testing.T) {
	t.Parallel()
	pong := &discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong}
	deferral := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}

	t.Run("the first response is written, a second refused", func(t *testing.T) {
		rec := httptest.NewRecorder()
		out := &httpResponse{w: rec, written: make(chan struct{})}
		require.NoError(t, out.write(deferral))
		assert.ErrorIs(t, out.write(pong), errAlreadyResponded)
		out.end()
		select {
		case <-out.written:
		default:
			t.Error("written is not closed")
		}
		var got discordgo.InteractionResponse
		require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &got))
		assert.Equal(t, deferral.Type, got.Type)
	})
	t.Run("nothing is written after the request", func(t *testing.T) {
		rec := httptest.NewRecorder()
		out := &httpResponse{w: rec, written: make(chan struct{})}
		out.end()
		assert.Error(t, out.write(deferral))
		assert.Zero(t, rec.Body.Len())
	})
}
