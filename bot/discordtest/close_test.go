package discordtest_test

import (
	"strconv"
	"testing"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
)

// closeCode reads from a gateway connection until it closes and returns the close code.
func closeCode(t *testing.T, ws *websocket.Conn) int {
	t.Helper()
	for {
		_, _, err := ws.ReadMessage()
		if err == nil {
			continue
		}
		var ce *websocket.CloseError
		require.ErrorAs(t, err, &ce)
		return ce.Code
	}
}

func TestCloseGateway(t *testing.T) {
	for _, code := range discordtest.FatalCloseCodes {
		t.Run(strconv.Itoa(code), func(t *testing.T) {
			s := discordtest.New(t)
			running := identify(t, s)
			s.CloseGateway(code)
			assert.Equal(t, code, closeCode(t, running), "the running connection is closed")

			again, resp, err := websocket.DefaultDialer.Dial(s.GatewayURL(), nil)
			require.NoError(t, err)
			require.NoError(t, resp.Body.Close())
			defer again.Close()
			readText(t, again) // HELLO
			require.NoError(t, again.WriteMessage(websocket.TextMessage, []byte(`{"op":2,"d":{"token":"Bot `+s.Token()+`","intents":0,"properties":{}}}`)))
			assert.Equal(t, code, closeCode(t, again), "a new IDENTIFY is refused with the same code")

			s.ReopenGateway()
			identify(t, s)
		})
	}
	t.Run("not fatal", func(t *testing.T) {
		s := discordtest.New(t)
		running := identify(t, s)
		s.CloseGateway(4000)
		assert.Equal(t, 4000, closeCode(t, running))
		identify(t, s)
	})
	t.Run("before the bot connects", func(t *testing.T) {
		s := discordtest.New(t)
		s.CloseGateway(4014)
		ws, resp, err := websocket.DefaultDialer.Dial(s.GatewayURL(), nil)
		require.NoError(t, err)
		require.NoError(t, resp.Body.Close())
		defer ws.Close()
		readText(t, ws) // HELLO
		require.NoError(t, ws.WriteMessage(websocket.TextMessage, []byte(`{"op":6,"d":{"token":"Bot `+s.Token()+`","session_id":"x","seq":1}}`)))
		assert.Equal(t, 4014, closeCode(t, ws), "a RESUME is refused too")
	})
}
