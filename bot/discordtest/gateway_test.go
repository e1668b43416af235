package discordtest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
)

// mustPNG encodes a small image, standing in for a board picture.
func mustPNG(tb testing.TB, w, h int) []byte {
	tb.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	img.Set(1, 1, color.RGBA{R: 200, A: 255})
	var buf bytes.Buffer
	require.NoError(tb, png.Encode(&buf, img))
	return buf.Bytes()
}

// receive waits for a value from ch or fails the test.
func receive[T any](tb testing.TB, ch <-chan T, what string) T {
	tb.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(5 * time.Second):
		tb.Fatalf("timed out waiting for %s", what)
	}
	var zero T
	return zero
}

// openSession opens a discordgo session on the fake gateway and returns it once READY arrived.
func openSession(t *testing.T, s *discordtest.Server) (*discordgo.Session, *discordgo.Ready) {
	t.Helper()
	dg := s.Session()
	ready := make(chan *discordgo.Ready, 1)
	dg.AddHandlerOnce(func(_ *discordgo.Session, r *discordgo.Ready) {
		// discordgo's state overwrites the guilds of r when GUILD_CREATE comes (state.go, GuildAdd:
		// *g = *guild), concurrently with this handler: keep only the rest.
		ready <- &discordgo.Ready{Version: r.Version, SessionID: r.SessionID, User: r.User, Application: r.Application}
	})
	require.NoError(t, dg.Open())
	return dg, receive(t, ready, "READY")
}

func TestGatewayReadyAndInteraction(t *testing.T) {
	t.Parallel()
	s := discordtest.New(t)
	ch := s.AddChannel("games")
	dg := s.Session()
	ready := make(chan *discordgo.Ready, 1)
	dg.AddHandlerOnce(func(_ *discordgo.Session, r *discordgo.Ready) {
		ready <- &discordgo.Ready{Version: r.Version, SessionID: r.SessionID, User: r.User, Application: r.Application}
	})
	guild := make(chan []string, 1)
	dg.AddHandlerOnce(func(_ *discordgo.Session, g *discordgo.GuildCreate) {
		var names []string
		for _, c := range g.Channels {
			names = append(names, c.Name)
		}
		guild <- append(names, g.ID)
	})
	require.NoError(t, dg.Open())
	r := receive(t, ready, "READY")
	assert.Equal(t, s.AppID(), r.User.ID)
	assert.True(t, r.User.Bot)
	assert.NotEmpty(t, r.SessionID)
	assert.Equal(t, s.AppID(), r.Application.ID)
	assert.Equal(t, []string{"games", s.GuildID()}, receive(t, guild, "GUILD_CREATE"))

	board := mustPNG(t, 8, 6)
	got := make(chan *discordgo.Interaction, 1)
	dg.AddHandler(func(dg *discordgo.Session, ic *discordgo.InteractionCreate) {
		got <- ic.Interaction
		err := dg.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{
				Content: "New game",
				Files:   []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(board)}},
			},
		})
		assert.NoError(t, err)
	})
	alice, bob := s.AddUser("alice"), s.AddUser("bob")
	i := s.Command(ch.ID, alice, "kulami", discordtest.Subcommand("new", discordtest.StringOption("layout", "classic"),
		discordtest.UserOption("opponent", bob.ID), discordtest.IntegerOption("handicap", 2), discordtest.BooleanOption("ranked", true)))
	s.SendInteraction(i)

	in := receive(t, got, "INTERACTION_CREATE")
	assert.Equal(t, i.ID, in.ID)
	assert.Equal(t, s.GuildID(), in.GuildID)
	require.NotNil(t, in.Member)
	assert.Equal(t, alice.ID, in.Member.User.ID)
	data := in.ApplicationCommandData()
	assert.Equal(t, "kulami", data.Name)
	require.Len(t, data.Options, 1)
	assert.Equal(t, "new", data.Options[0].Name)
	opts := data.Options[0].Options
	require.Len(t, opts, 4)
	assert.Equal(t, "classic", opts[0].StringValue())
	assert.Equal(t, bob.ID, opts[1].Value)
	assert.Equal(t, int64(2), opts[2].IntValue())
	assert.True(t, opts[3].BoolValue())
	assert.Equal(t, int64(discordgo.PermissionSendMessages), in.AppPermissions&discordgo.PermissionSendMessages)

	resp := s.WaitResponse(t, i.ID)
	assert.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, resp.Type)
	assert.Equal(t, "New game", resp.Content)
	require.Len(t, resp.Files, 1)
	assert.Equal(t, board, resp.Files[0].Data)

	m, ok := s.Original(i.ID)
	require.True(t, ok)
	assert.Equal(t, ch.ID, m.ChannelID)
	require.Len(t, m.Attachments, 1)
	assert.Equal(t, 8, m.Attachments[0].Width)
	img, err := png.Decode(bytes.NewReader(m.Files[0].Data))
	require.NoError(t, err)
	assert.Equal(t, 6, img.Bounds().Dy())
	assert.Empty(t, s.Violations())
}

// bot is a minimal discordgo bot for the tests: it answers each interaction with the function the test
// registered for its ID and reports the function's error.
type bot struct {
	dg       *discordgo.Session
	mu       sync.Mutex
	handlers map[string]func(*discordgo.Session, *discordgo.Interaction) error
	done     map[string]chan error
}

func newBot(t *testing.T, s *discordtest.Server) *bot {
	b := &bot{handlers: map[string]func(*discordgo.Session, *discordgo.Interaction) error{}, done: map[string]chan error{}}
	b.dg, _ = openSession(t, s)
	b.dg.AddHandler(func(dg *discordgo.Session, ic *discordgo.InteractionCreate) {
		b.mu.Lock()
		h, done := b.handlers[ic.ID], b.done[ic.ID]
		b.mu.Unlock()
		if h == nil {
			t.Errorf("no handler for interaction %s", ic.ID)
			return
		}
		done <- h(dg, ic.Interaction)
	})
	return b
}

// run sends i through the gateway, answers it with h and waits until h has returned.
func (b *bot) run(t *testing.T, s *discordtest.Server, i *discordgo.Interaction, h func(*discordgo.Session, *discordgo.Interaction) error) {
	t.Helper()
	done := make(chan error, 1)
	b.mu.Lock()
	b.handlers[i.ID], b.done[i.ID] = h, done
	b.mu.Unlock()
	s.SendInteraction(i)
	require.NoError(t, receive(t, done, "the handler of interaction "+i.ID))
}

func respondWith(r *discordgo.InteractionResponse) func(*discordgo.Session, *discordgo.Interaction) error {
	return func(dg *discordgo.Session, i *discordgo.Interaction) error { return dg.InteractionRespond(i, r) }
}

func buttons(ids ...string) []discordgo.MessageComponent {
	var row discordgo.ActionsRow
	for _, id := range ids {
		row.Components = append(row.Components, discordgo.Button{Label: id, CustomID: id, Style: discordgo.SecondaryButton})
	}
	return []discordgo.MessageComponent{row}
}

func TestInteractionResponses(t *testing.T) {
	t.Parallel()
	s := discordtest.New(t)
	games := s.AddChannel("games")
	alice := s.AddUser("alice")
	b := newBot(t, s)
	board, err := b.dg.ChannelMessageSendComplex(games.ID, &discordgo.MessageSend{Content: "board", Components: buttons("kulami:move:1", "kulami:resign")})
	require.NoError(t, err)
	png1 := mustPNG(t, 4, 4)
	text := func(s string) *string { return &s }

	tests := []struct {
		name    string
		build   func() *discordgo.Interaction
		respond func(*discordgo.Session, *discordgo.Interaction) error
		check   func(t *testing.T, i *discordgo.Interaction)
	}{
		{
			name: "message with components",
			build: func() *discordgo.Interaction {
				return s.Command(games.ID, alice, "kulami", discordtest.Subcommand("help"))
			},
			respond: respondWith(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: "How to play", Components: buttons("kulami:rules")}}),
			check: func(t *testing.T, i *discordgo.Interaction) {
				r := s.WaitResponse(t, i.ID)
				assert.Equal(t, "How to play", r.Content)
				assert.False(t, r.Ephemeral())
				require.Len(t, r.Components, 1)
				row := r.Components[0].(*discordgo.ActionsRow)
				assert.Equal(t, "kulami:rules", row.Components[0].(*discordgo.Button).CustomID)
				m, ok := s.Original(i.ID)
				require.True(t, ok)
				assert.Equal(t, discordgo.MessageTypeChatInputCommand, m.Type)
				assert.Equal(t, alice.ID, m.InteractionMetadata.User.ID)
				assert.Contains(t, s.Messages(games.ID), m)
			},
		},
		{
			name: "ephemeral message",
			build: func() *discordgo.Interaction {
				return s.Command(games.ID, alice, "kulami", discordtest.Subcommand("resign"))
			},
			respond: respondWith(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: "No game here", Flags: discordgo.MessageFlagsEphemeral}}),
			check: func(t *testing.T, i *discordgo.Interaction) {
				assert.True(t, s.WaitResponse(t, i.ID).Ephemeral())
				m, _ := s.Original(i.ID)
				assert.True(t, m.Ephemeral())
				listed, err := b.dg.ChannelMessages(games.ID, 100, "", "", "")
				require.NoError(t, err)
				for _, l := range listed {
					assert.NotEqual(t, m.ID, l.ID, "ephemeral messages are not in the channel's history")
				}
			},
		},
		{
			name: "deferred, then edited with a file",
			build: func() *discordgo.Interaction {
				return s.Command(games.ID, alice, "kulami", discordtest.Subcommand("board"))
			},
			respond: func(dg *discordgo.Session, i *discordgo.Interaction) error {
				if err := dg.InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}); err != nil {
					return err
				}
				_, err := dg.InteractionResponseEdit(i, &discordgo.WebhookEdit{Content: text("Your board"),
					Files: []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(png1)}}})
				return err
			},
			check: func(t *testing.T, i *discordgo.Interaction) {
				assert.Equal(t, discordgo.InteractionResponseDeferredChannelMessageWithSource, s.WaitResponse(t, i.ID).Type)
				m := s.WaitOriginal(t, i.ID, func(m *discordtest.Message) bool { return m.Content != "" })
				assert.Equal(t, "Your board", m.Content)
				assert.Zero(t, m.Flags&discordgo.MessageFlagsLoading)
				require.Len(t, m.Files, 1)
				assert.Equal(t, png1, m.Files[0].Data)
				assert.Equal(t, 1, m.Edits)
			},
		},
		{
			name: "deferred ephemeral, then a followup replaces the thinking message",
			build: func() *discordgo.Interaction {
				return s.Command(games.ID, alice, "kulami", discordtest.Subcommand("stats"))
			},
			respond: func(dg *discordgo.Session, i *discordgo.Interaction) error {
				if err := dg.InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
					Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral}}); err != nil {
					return err
				}
				_, err := dg.FollowupMessageCreate(i, false, &discordgo.WebhookParams{Content: "12 wins"})
				return err
			},
			check: func(t *testing.T, i *discordgo.Interaction) {
				m, ok := s.Original(i.ID)
				require.True(t, ok)
				assert.Equal(t, "12 wins", m.Content)
				assert.True(t, m.Ephemeral())
				assert.Zero(t, m.Flags&discordgo.MessageFlagsLoading)
				f := s.Followups(i.ID)
				require.Len(t, f, 1)
				assert.Equal(t, m.ID, f[0].ID)
			},
		},
		{
			name:  "deferred update of the clicked message, then edited",
			build: func() *discordgo.Interaction { return s.Button(board.ID, alice, "kulami:move:1") },
			respond: func(dg *discordgo.Session, i *discordgo.Interaction) error {
				if err := dg.InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}); err != nil {
					return err
				}
				_, err := dg.InteractionResponseEdit(i, &discordgo.WebhookEdit{Content: text("board after move 1")})
				return err
			},
			check: func(t *testing.T, i *discordgo.Interaction) {
				m, ok := s.Message(board.ID)
				require.True(t, ok)
				assert.Equal(t, "board after move 1", m.Content)
				o, _ := s.Original(i.ID)
				assert.Equal(t, board.ID, o.ID)
			},
		},
		{
			name:  "update of the clicked message with a file",
			build: func() *discordgo.Interaction { return s.Button(board.ID, alice, "kulami:move:1") },
			respond: respondWith(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage,
				Data: &discordgo.InteractionResponseData{Content: "board after move 2", Components: buttons("kulami:move:2"),
					Files: []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(png1)}}}}),
			check: func(t *testing.T, i *discordgo.Interaction) {
				r := s.WaitResponse(t, i.ID)
				require.Len(t, r.Files, 1)
				m, _ := s.Message(board.ID)
				assert.Equal(t, "board after move 2", m.Content)
				require.Len(t, m.Attachments, 1)
				assert.Equal(t, 4, m.Attachments[0].Height)
				assert.Equal(t, "kulami:move:2", m.Components[0].(*discordgo.ActionsRow).Components[0].(*discordgo.Button).CustomID)
			},
		},
		{
			name: "select menu",
			build: func() *discordgo.Interaction {
				return s.Select(board.ID, alice, "kulami:layout", "classic")
			},
			respond: func(dg *discordgo.Session, i *discordgo.Interaction) error {
				if v := i.MessageComponentData().Values; len(v) != 1 || v[0] != "classic" {
					return fmt.Errorf("values %v", v)
				}
				return dg.InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
			},
			check: func(t *testing.T, i *discordgo.Interaction) {
				assert.Equal(t, discordgo.InteractionResponseDeferredMessageUpdate, s.WaitResponse(t, i.ID).Type)
			},
		},
		{
			name: "autocomplete",
			build: func() *discordgo.Interaction {
				return s.Autocomplete(games.ID, alice, "kulami", discordtest.Subcommand("new", discordtest.Focused(discordtest.StringOption("layout", "cl"))))
			},
			respond: func(dg *discordgo.Session, i *discordgo.Interaction) error {
				o := i.ApplicationCommandData().Options[0].Options[0]
				if !o.Focused || o.StringValue() != "cl" {
					return fmt.Errorf("focused option %+v", o)
				}
				return dg.InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult,
					Data: &discordgo.InteractionResponseData{Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "Classic", Value: "classic"}}}})
			},
			check: func(t *testing.T, i *discordgo.Interaction) {
				r := s.WaitResponse(t, i.ID)
				require.Len(t, r.Choices, 1)
				assert.Equal(t, "classic", r.Choices[0].Value)
			},
		},
		{
			name: "modal, then its submission",
			build: func() *discordgo.Interaction {
				return s.Command(games.ID, alice, "kulami", discordtest.Subcommand("record"))
			},
			respond: respondWith(&discordgo.InteractionResponse{Type: discordgo.InteractionResponseModal, Data: &discordgo.InteractionResponseData{
				CustomID: "kulami:record", Title: "Paste a record",
				Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
					discordgo.TextInput{CustomID: "record", Label: "Record", Style: discordgo.TextInputParagraph, Required: true}}}},
			}}),
			check: func(t *testing.T, i *discordgo.Interaction) {
				r := s.WaitResponse(t, i.ID)
				assert.Equal(t, "kulami:record", r.CustomID)
				assert.Equal(t, "Paste a record", r.Title)
				sub := s.ModalSubmit(games.ID, "", alice, "kulami:record", map[string]string{"record": "a1 b2"})
				b.run(t, s, sub, func(dg *discordgo.Session, i *discordgo.Interaction) error {
					d := i.ModalSubmitData()
					in := d.Components[0].(*discordgo.ActionsRow).Components[0].(*discordgo.TextInput)
					return dg.InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
						Data: &discordgo.InteractionResponseData{Content: d.CustomID + ": " + in.Value}})
				})
				assert.Equal(t, "kulami:record: a1 b2", s.WaitResponse(t, sub.ID).Content)
			},
		},
		{
			name: "followups",
			build: func() *discordgo.Interaction {
				return s.Command(games.ID, alice, "kulami", discordtest.Subcommand("new"))
			},
			respond: func(dg *discordgo.Session, i *discordgo.Interaction) error {
				if err := dg.InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
					Data: &discordgo.InteractionResponseData{Content: "Game on"}}); err != nil {
					return err
				}
				f, err := dg.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: "Only you see this", Flags: discordgo.MessageFlagsEphemeral})
				if err != nil {
					return err
				}
				_, err = dg.FollowupMessageEdit(i, f.ID, &discordgo.WebhookEdit{Content: text("Only you see this (edited)")})
				return err
			},
			check: func(t *testing.T, i *discordgo.Interaction) {
				f := s.Followups(i.ID)
				require.Len(t, f, 1)
				assert.Equal(t, "Only you see this (edited)", f[0].Content)
				assert.True(t, f[0].Ephemeral())
			},
		},
		{
			name: "command in a DM",
			build: func() *discordgo.Interaction {
				return s.Command(s.DMChannel(alice.ID).ID, alice, "kulami", discordtest.Subcommand("stats"))
			},
			respond: func(dg *discordgo.Session, i *discordgo.Interaction) error {
				if i.Member != nil || i.User == nil || i.GuildID != "" || i.User.ID != alice.ID {
					return fmt.Errorf("DM interaction with member %v, user %v, guild %q", i.Member, i.User, i.GuildID)
				}
				return dg.InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
					Data: &discordgo.InteractionResponseData{Content: "Your stats"}})
			},
			check: func(t *testing.T, i *discordgo.Interaction) {
				m, ok := s.Original(i.ID)
				require.True(t, ok)
				assert.Equal(t, s.DMChannel(alice.ID).ID, m.ChannelID)
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			i := tt.build()
			b.run(t, s, i, tt.respond)
			tt.check(t, i)
		})
	}
	assert.Empty(t, s.Violations())
	assert.Empty(t, discordtest.ResponseProblems(s))
}

// jsonField returns the JSON of one member of a JSON object.
func jsonField(tb testing.TB, obj []byte, name string) string {
	tb.Helper()
	var m map[string]json.RawMessage
	require.NoError(tb, json.Unmarshal(obj, &m))
	return string(m[name])
}

func TestReconnectResumes(t *testing.T) {
	t.Parallel()
	s := discordtest.New(t)
	ch := s.AddChannel("games")
	dg, first := openSession(t, s)
	resumed := make(chan struct{}, 1)
	dg.AddHandler(func(*discordgo.Session, *discordgo.Resumed) { resumed <- struct{}{} })
	created := make(chan string, 1)
	dg.AddHandler(func(_ *discordgo.Session, m *discordgo.MessageCreate) { created <- m.Content })

	s.Reconnect()
	receive(t, resumed, "RESUMED")

	// The resumed session goes on receiving events, in sequence.
	s.Dispatch("MESSAGE_CREATE", map[string]any{"id": "1", "channel_id": ch.ID, "content": "after resume",
		"author": map[string]any{"id": "2", "username": "alice", "discriminator": "0"}, "timestamp": "2026-01-01T00:00:00+00:00",
		"type": 0, "attachments": []any{}, "embeds": []any{}, "mentions": []any{}, "mention_roles": []any{}, "pinned": false, "tts": false, "mention_everyone": false})
	assert.Equal(t, "after resume", receive(t, created, "MESSAGE_CREATE"))
	assert.NotEmpty(t, first.SessionID)
}

func TestGatewayProtocol(t *testing.T) {
	s := discordtest.New(t)
	tests := []struct {
		name string
		send []string // payloads after HELLO
		want func(t *testing.T, ws *websocket.Conn)
	}{
		{
			name: "heartbeat is acknowledged",
			send: []string{`{"op":1,"d":null}`},
			want: func(t *testing.T, ws *websocket.Conn) {
				assert.JSONEq(t, `{"op":11,"d":null,"s":null,"t":null}`, readText(t, ws))
			},
		},
		{
			name: "wrong token closes with 4004",
			send: []string{`{"op":2,"d":{"token":"Bot wrong","intents":513,"properties":{}}}`},
			want: func(t *testing.T, ws *websocket.Conn) {
				_, _, err := ws.ReadMessage()
				assert.True(t, websocket.IsCloseError(err, 4004), "error %v", err)
			},
		},
		{
			name: "identify without intents closes with 4013",
			send: []string{`{"op":2,"d":{"token":"` + s.Token() + `","properties":{}}}`},
			want: func(t *testing.T, ws *websocket.Conn) {
				_, _, err := ws.ReadMessage()
				assert.True(t, websocket.IsCloseError(err, 4013), "error %v", err)
			},
		},
		{
			name: "a shard beyond the shard count closes with 4010",
			send: []string{`{"op":2,"d":{"token":"` + s.Token() + `","intents":1,"shard":[2,2],"properties":{}}}`},
			want: func(t *testing.T, ws *websocket.Conn) {
				_, _, err := ws.ReadMessage()
				assert.True(t, websocket.IsCloseError(err, 4010), "error %v", err)
			},
		},
		{
			name: "a shard count of 0 closes with 4010",
			send: []string{`{"op":2,"d":{"token":"` + s.Token() + `","intents":1,"shard":[0,0],"properties":{}}}`},
			want: func(t *testing.T, ws *websocket.Conn) {
				_, _, err := ws.ReadMessage()
				assert.True(t, websocket.IsCloseError(err, 4010), "error %v", err)
			},
		},
		{
			name: "resume of an unknown session is refused",
			send: []string{`{"op":6,"d":{"token":"` + s.Token() + `","session_id":"nope","seq":3}}`},
			want: func(t *testing.T, ws *websocket.Conn) {
				assert.JSONEq(t, `{"op":9,"d":false,"s":null,"t":null}`, readText(t, ws))
			},
		},
		{
			name: "identify is answered with READY, then GUILD_CREATE",
			send: []string{`{"op":2,"d":{"token":"` + s.Token() + `","intents":1,"properties":{}}}`},
			want: func(t *testing.T, ws *websocket.Conn) {
				var ready struct {
					Op int
					S  int
					T  string
					D  struct {
						SessionID        string `json:"session_id"`
						ResumeGatewayURL string `json:"resume_gateway_url"`
					}
				}
				require.NoError(t, json.Unmarshal([]byte(readText(t, ws)), &ready))
				assert.Equal(t, "READY", ready.T)
				assert.Equal(t, 1, ready.S)
				assert.NotEmpty(t, ready.D.SessionID)
				assert.Equal(t, s.GatewayURL(), ready.D.ResumeGatewayURL)
				assert.Contains(t, readText(t, ws), `"t":"GUILD_CREATE"`)
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws, resp, err := websocket.DefaultDialer.Dial(s.GatewayURL()+"/?v=10&encoding=json", nil)
			require.NoError(t, err)
			require.NoError(t, resp.Body.Close())
			defer ws.Close()
			assert.JSONEq(t, `{"op":10,"d":{"heartbeat_interval":41250},"s":null,"t":null}`, readText(t, ws))
			for _, p := range tt.send {
				require.NoError(t, ws.WriteMessage(websocket.TextMessage, []byte(p)))
			}
			tt.want(t, ws)
		})
	}
}

func readText(t *testing.T, ws *websocket.Conn) string {
	t.Helper()
	require.NoError(t, ws.SetReadDeadline(time.Now().Add(5*time.Second)))
	typ, data, err := ws.ReadMessage()
	require.NoError(t, err)
	assert.Equal(t, websocket.TextMessage, typ)
	return string(data)
}

func TestDispatchWithoutSession(t *testing.T) {
	rec := &recorder{TB: t}
	s := discordtest.New(rec, discordtest.WithTimeout(20*time.Millisecond))
	s.Dispatch("MESSAGE_CREATE", map[string]any{})
	require.Len(t, rec.errors, 1)
	assert.Contains(t, rec.errors[0], "no gateway session connected")
}

func TestCloseLeavesNoGoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	rec := &recorder{TB: t}
	s := discordtest.New(rec)
	ws, resp, err := websocket.DefaultDialer.Dial(s.GatewayURL(), nil)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	readText(t, ws) // HELLO: the connection is being served
	s.Close()
	_, _, err = ws.ReadMessage()
	assert.True(t, websocket.IsCloseError(err, websocket.CloseGoingAway), "error %v", err)
	require.NoError(t, ws.Close())
	s.Close() // a second Close does nothing
	// The test's own connection winds down asynchronously; only goroutines
	// that never end wait a minute.
	deadline := time.Now().Add(time.Minute)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond) // the test's own connection winds down asynchronously
	}
	assert.LessOrEqual(t, runtime.NumGoroutine(), before)
}

// identify connects a bare websocket client to the fake gateway and identifies, for tests that need a
// gateway session without discordgo's (slow) Close.
func identify(t *testing.T, s *discordtest.Server) *websocket.Conn {
	t.Helper()
	ws, resp, err := websocket.DefaultDialer.Dial(s.GatewayURL(), nil)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	t.Cleanup(func() { _ = ws.Close() })
	readText(t, ws) // HELLO
	require.NoError(t, ws.WriteMessage(websocket.TextMessage, []byte(`{"op":2,"d":{"token":"Bot `+s.Token()+`","intents":0,"properties":{}}}`)))
	assert.Contains(t, readText(t, ws), `"t":"READY"`)
	return ws
}
