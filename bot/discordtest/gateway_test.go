package discordtest_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
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
		// discordgo's state goes on changing the guilds of r: keep a copy.
		c := *r
		c.Guilds = nil
		for _, g := range r.Guilds {
			c.Guilds = append(c.Guilds, &discordgo.Guild{ID: g.ID})
		}
		ready <- &c
	})
	require.NoError(t, dg.Open())
	return dg, receive(t, ready, "READY")
}

func TestGatewayReadyAndInteraction(t *testing.T) {
	t.Parallel()
	s := discordtest.New(t)
	ch := s.AddChannel("games")
	dg, ready := openSession(t, s)
	assert.Equal(t, s.AppID(), ready.User.ID)
	assert.True(t, ready.User.Bot)
	assert.NotEmpty(t, ready.SessionID)
	assert.Equal(t, s.AppID(), ready.Application.ID)
	require.Len(t, ready.Guilds, 1)
	assert.Equal(t, s.GuildID(), ready.Guilds[0].ID)

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
	alice := s.AddUser("alice")
	i := s.Command(ch.ID, alice, "kulami", discordtest.Subcommand("new", discordtest.StringOption("layout", "classic")))
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
	assert.Equal(t, "classic", data.Options[0].Options[0].StringValue())

	r := s.WaitResponse(t, i.ID)
	assert.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, r.Type)
	assert.Equal(t, "New game", r.Content)
	require.Len(t, r.Files, 1)
	assert.Equal(t, board, r.Files[0].Data)

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
