package discordtest_test

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
)

// endpoint is a minimal HTTP interactions endpoint: it checks the signature and the timestamp's age,
// answers PING with PONG, and answers a command with what answer returns.
func endpoint(t *testing.T, key ed25519.PublicKey, answer func(w http.ResponseWriter, i *discordgo.Interaction)) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ts, err := strconv.ParseInt(r.Header.Get("X-Signature-Timestamp"), 10, 64)
		if !discordgo.VerifyInteraction(r, key) || err != nil || time.Since(time.Unix(ts, 0)) > 5*time.Minute {
			http.Error(w, "invalid request signature", http.StatusUnauthorized)
			return
		}
		var i discordgo.Interaction
		if err := json.NewDecoder(r.Body).Decode(&i); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if i.Type == discordgo.InteractionPing {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"type":1}`))
			return
		}
		answer(w, &i)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func answerJSON(r *discordgo.InteractionResponse) func(http.ResponseWriter, *discordgo.Interaction) {
	return func(w http.ResponseWriter, _ *discordgo.Interaction) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(r)
	}
}

func TestSign(t *testing.T) {
	s := discordtest.New(t)
	key, err := hex.DecodeString(s.PublicKeyHex())
	require.NoError(t, err)
	assert.Equal(t, []byte(s.PublicKey()), key)
	body := []byte(`{"type":1}`)
	sig, err := hex.DecodeString(s.Sign("1700000000", body))
	require.NoError(t, err)
	assert.True(t, ed25519.Verify(key, []byte(`1700000000{"type":1}`), sig))
	assert.False(t, ed25519.Verify(key, []byte(`1700000001{"type":1}`), sig))
}

func TestPostBodySignatures(t *testing.T) {
	s := discordtest.New(t)
	url := endpoint(t, s.PublicKey(), nil)
	ping, err := json.Marshal(map[string]any{"type": 1, "id": "1", "application_id": s.AppID(), "token": "t", "version": 1})
	require.NoError(t, err)
	tests := []struct {
		sig    discordtest.Signature
		status int
	}{
		{discordtest.SignValid, http.StatusOK},
		{discordtest.SignWrongKey, http.StatusUnauthorized},
		{discordtest.SignTampered, http.StatusUnauthorized},
		{discordtest.SignStale, http.StatusUnauthorized},
		{discordtest.SignNone, http.StatusUnauthorized},
	}
	for _, tt := range tests {
		t.Run(strconv.Itoa(int(tt.sig)), func(t *testing.T) {
			resp, err := s.PostBody(url, ping, tt.sig)
			require.NoError(t, err)
			require.NoError(t, resp.Body.Close())
			assert.Equal(t, tt.status, resp.StatusCode)
		})
	}
}

func TestPostInteraction(t *testing.T) {
	png1 := mustPNG(t, 2, 2)
	tests := []struct {
		name   string
		answer func(http.ResponseWriter, *discordgo.Interaction)
		check  func(t *testing.T, s *discordtest.Server, r *discordtest.Response)
	}{
		{
			name: "JSON message",
			answer: answerJSON(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: "Game on", Flags: discordgo.MessageFlagsEphemeral}}),
			check: func(t *testing.T, s *discordtest.Server, r *discordtest.Response) {
				assert.Equal(t, "Game on", r.Content)
				assert.True(t, r.Ephemeral())
				m, ok := s.Original(r.InteractionID)
				require.True(t, ok)
				assert.Equal(t, "Game on", m.Content)
			},
		},
		{
			name: "multipart message with a file",
			answer: func(w http.ResponseWriter, _ *discordgo.Interaction) {
				resp := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
					Data: &discordgo.InteractionResponseData{Content: "Board"}}
				ct, body, err := discordgo.MultipartBodyWithJSON(resp, []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(png1)}})
				if err != nil {
					http.Error(w, err.Error(), http.StatusInternalServerError)
					return
				}
				w.Header().Set("Content-Type", ct)
				_, _ = w.Write(body)
			},
			check: func(t *testing.T, s *discordtest.Server, r *discordtest.Response) {
				require.Len(t, r.Files, 1)
				assert.Equal(t, png1, r.Files[0].Data)
				m, _ := s.Original(r.InteractionID)
				require.Len(t, m.Files, 1)
			},
		},
		{
			name:   "deferred",
			answer: answerJSON(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}),
			check: func(t *testing.T, s *discordtest.Server, r *discordtest.Response) {
				m, _ := s.Original(r.InteractionID)
				assert.NotZero(t, m.Flags&discordgo.MessageFlagsLoading)
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := discordtest.New(t)
			url := endpoint(t, s.PublicKey(), tt.answer)
			i := s.Command(s.AddChannel("games").ID, s.AddUser("alice"), "kulami")
			resp, err := s.PostInteraction(url, i)
			require.NoError(t, err)
			assert.Equal(t, http.StatusOK, resp.StatusCode)
			_, err = io.ReadAll(resp.Body)
			require.NoError(t, err)
			r := s.WaitResponse(t, i.ID)
			assert.True(t, r.HTTP)
			tt.check(t, s, r)
		})
	}
	t.Run("ping", func(t *testing.T) {
		s := discordtest.New(t)
		p := s.Ping()
		_, err := s.PostInteraction(endpoint(t, s.PublicKey(), nil), p)
		require.NoError(t, err)
		assert.Equal(t, discordgo.InteractionResponsePong, s.WaitResponse(t, p.ID).Type)
	})
}

func TestPostInteractionViolations(t *testing.T) {
	tests := []struct {
		name   string
		answer func(http.ResponseWriter, *discordgo.Interaction)
		msg    string
	}{
		{"invalid response", func(w http.ResponseWriter, _ *discordgo.Interaction) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"type":4,"data":{"content":["x"]}}`))
		}, "at '/data/content'"},
		{"error status", func(w http.ResponseWriter, _ *discordgo.Interaction) {
			http.Error(w, "boom", http.StatusInternalServerError)
		}, "answered HTTP 500"},
		{"no body", func(w http.ResponseWriter, _ *discordgo.Interaction) {
			w.Header().Set("Content-Type", "application/json")
		}, "body is not JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := discordtest.New(t, discordtest.CollectViolations())
			i := s.Command(s.AddChannel("games").ID, s.AddUser("alice"), "kulami")
			_, err := s.PostInteraction(endpoint(t, s.PublicKey(), tt.answer), i)
			require.NoError(t, err)
			v := s.Violations()
			require.Len(t, v, 1)
			assert.Equal(t, "/interactions/{interaction_id}/{interaction_token}/callback", v[0].Route)
			assert.Contains(t, v[0].Message, tt.msg)
			_, ok := s.Response(i.ID)
			assert.False(t, ok)
		})
	}
}
