package discordtest_test

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
)

// checkAnswers fails the test if the fake's own answers do not match Discord's response schemas.
func checkAnswers(t *testing.T, s *discordtest.Server) {
	t.Helper()
	assert.Empty(t, discordtest.ResponseProblems(s))
}

func TestMessages(t *testing.T) {
	s := discordtest.New(t)
	dg := s.Session()
	ch := s.AddChannel("games")
	first, second := mustPNG(t, 3, 2), mustPNG(t, 5, 5)

	m, err := dg.ChannelMessageSendComplex(ch.ID, &discordgo.MessageSend{
		Content:    "Game 1",
		Components: buttons("kulami:move:1"),
		Embeds:     []*discordgo.MessageEmbed{{Title: "Kulami", Description: "Red to move"}},
		Files:      []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(first)}},
	})
	require.NoError(t, err)
	assert.Equal(t, ch.ID, m.ChannelID)
	assert.Equal(t, s.AppID(), m.Author.ID)
	require.Len(t, m.Attachments, 1)
	assert.Equal(t, "board.png", m.Attachments[0].Filename)
	assert.Equal(t, 3, m.Attachments[0].Width)

	// The attachment's URL serves its bytes.
	resp, err := http.Get(m.Attachments[0].URL)
	require.NoError(t, err)
	got, err := io.ReadAll(resp.Body)
	require.NoError(t, resp.Body.Close())
	require.NoError(t, err)
	assert.Equal(t, first, got)

	// An edit with a file adds it; an edit listing attachments keeps only those.
	e := discordgo.NewMessageEdit(ch.ID, m.ID).SetContent("Game 1, move 1")
	e.Files = []*discordgo.File{{Name: "board2.png", ContentType: "image/png", Reader: bytes.NewReader(second)}}
	m2, err := dg.ChannelMessageEditComplex(e)
	require.NoError(t, err)
	require.Len(t, m2.Attachments, 2)
	assert.NotNil(t, m2.EditedTimestamp)
	keep := []*discordgo.MessageAttachment{m2.Attachments[1]}
	_, err = dg.ChannelMessageEditComplex(&discordgo.MessageEdit{ID: m.ID, Channel: ch.ID, Attachments: &keep})
	require.NoError(t, err)

	cur, ok := s.Message(m.ID)
	require.True(t, ok)
	assert.Equal(t, "Game 1, move 1", cur.Content)
	assert.Equal(t, 2, cur.Edits)
	require.Len(t, cur.Files, 1)
	assert.Equal(t, second, cur.Files[0].Data)
	assert.Equal(t, "Kulami", cur.Embeds[0].Title)

	// Reads: one message, and the history newest first.
	later, err := dg.ChannelMessageSend(ch.ID, "Game 2")
	require.NoError(t, err)
	one, err := dg.ChannelMessage(ch.ID, m.ID)
	require.NoError(t, err)
	assert.Equal(t, "Game 1, move 1", one.Content)
	list, err := dg.ChannelMessages(ch.ID, 10, "", "", "")
	require.NoError(t, err)
	require.Len(t, list, 2)
	assert.Equal(t, later.ID, list[0].ID)
	before, err := dg.ChannelMessages(ch.ID, 10, later.ID, "", "")
	require.NoError(t, err)
	require.Len(t, before, 1)
	assert.Equal(t, m.ID, before[0].ID)

	require.NoError(t, dg.ChannelMessageDelete(ch.ID, m.ID))
	gone, ok := s.Message(m.ID)
	require.True(t, ok)
	assert.True(t, gone.Deleted)
	assert.Len(t, s.Messages(ch.ID), 1)
	_, err = dg.ChannelMessage(ch.ID, m.ID)
	var rest *discordgo.RESTError
	require.ErrorAs(t, err, &rest)
	assert.Equal(t, discordgo.ErrCodeUnknownMessage, rest.Message.Code)

	// The recorded request of the upload keeps payload_json and the file.
	posts := s.RequestsTo("POST", "/channels/{channel_id}/messages")
	require.Len(t, posts, 2)
	assert.JSONEq(t, `"Game 1"`, jsonField(t, posts[0].Body, "content"))
	require.Len(t, posts[0].Files, 1)
	assert.Equal(t, "board.png", posts[0].Files[0].Name)
	assert.Equal(t, first, posts[0].Files[0].Data)
	checkAnswers(t, s)
}

func TestChannelsThreadsAndDMs(t *testing.T) {
	s := discordtest.New(t)
	dg := s.Session()
	ch := s.AddChannel("games")
	alice := s.AddUser("alice")

	old := s.AddThread(ch.ID, "an older game")
	got, err := dg.Channel(old.ID)
	require.NoError(t, err)
	assert.Equal(t, s.AppID(), got.OwnerID)
	assert.Equal(t, s.BotUser().ID, got.OwnerID)

	th, err := dg.ThreadStart(ch.ID, "alice vs bob", discordgo.ChannelTypeGuildPublicThread, 1440)
	require.NoError(t, err)
	assert.Equal(t, ch.ID, th.ParentID)
	assert.Equal(t, discordgo.ChannelTypeGuildPublicThread, th.Type)

	m, err := dg.ChannelMessageSend(ch.ID, "New game")
	require.NoError(t, err)
	fromMsg, err := dg.MessageThreadStart(ch.ID, m.ID, "game", 60)
	require.NoError(t, err)
	assert.Equal(t, m.ID, fromMsg.ID, "a thread started from a message has the message's ID")
	_, err = dg.MessageThreadStart(ch.ID, m.ID, "again", 60)
	assert.Error(t, err)

	// An archived thread: unarchive it by PATCH; or sending to it unarchives it.
	s.SetArchived(th.ID, true)
	got, err = dg.Channel(th.ID)
	require.NoError(t, err)
	assert.True(t, got.ThreadMetadata.Archived)
	no := false
	_, err = dg.ChannelEdit(th.ID, &discordgo.ChannelEdit{Archived: &no})
	require.NoError(t, err)
	now, _ := s.Channel(th.ID)
	assert.False(t, now.ThreadMetadata.Archived)
	s.SetArchived(th.ID, true)
	_, err = dg.ChannelMessageSend(th.ID, "move")
	require.NoError(t, err)
	now, _ = s.Channel(th.ID)
	assert.False(t, now.ThreadMetadata.Archived)

	dm, err := dg.UserChannelCreate(alice.ID)
	require.NoError(t, err)
	assert.Equal(t, discordgo.ChannelTypeDM, dm.Type)
	assert.Equal(t, s.DMChannel(alice.ID).ID, dm.ID)
	_, err = dg.ChannelMessageSend(dm.ID, "Your turn")
	require.NoError(t, err)
	require.Len(t, s.Messages(dm.ID), 1)

	mem, err := dg.GuildMember(s.GuildID(), alice.ID)
	require.NoError(t, err)
	assert.Equal(t, "alice", mem.User.Username)
	me, err := dg.User("@me")
	require.NoError(t, err)
	assert.Equal(t, s.AppID(), me.ID)
	assert.Len(t, s.Channels(), 4)
	checkAnswers(t, s)
}

func TestCommandsBulkOverwrite(t *testing.T) {
	s := discordtest.New(t)
	dg := s.Session()
	manage := int64(discordgo.PermissionManageMessages)
	cmds := []*discordgo.ApplicationCommand{{
		Name: "kulami", Description: "Play Kulami",
		// discordgo sends this as a string, as Discord's docs say; the OpenAPI description wants an
		// integer (see docAllowance).
		DefaultMemberPermissions: &manage,
		Options: []*discordgo.ApplicationCommandOption{{
			Type: discordgo.ApplicationCommandOptionSubCommand, Name: "new", Description: "Start a game",
			Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionUser, Name: "opponent", Description: "Who to play", Required: true},
				{Type: discordgo.ApplicationCommandOptionString, Name: "layout", Description: "Board layout", Autocomplete: true},
			},
		}},
	}}
	tests := []struct {
		name    string
		guildID string
	}{
		{"global", ""},
		{"guild", s.GuildID()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := dg.ApplicationCommandBulkOverwrite(s.AppID(), tt.guildID, cmds)
			require.NoError(t, err)
			require.Len(t, got, 1)
			assert.NotEmpty(t, got[0].ID)
			again, err := dg.ApplicationCommandBulkOverwrite(s.AppID(), tt.guildID, cmds)
			require.NoError(t, err)
			assert.Equal(t, got[0].ID, again[0].ID, "overwriting keeps a command's ID")
			reg := s.Commands(tt.guildID)
			require.Len(t, reg, 1)
			assert.Equal(t, "kulami", reg[0].Name)
			assert.Equal(t, "opponent", reg[0].Options[0].Options[0].Name)
			require.NotNil(t, reg[0].DefaultMemberPermissions)
			assert.Equal(t, manage, *reg[0].DefaultMemberPermissions)
		})
	}
	ch := s.AddChannel("games")
	i := s.Command(ch.ID, s.AddUser("alice"), "kulami")
	assert.Equal(t, s.Commands(s.GuildID())[0].ID, i.ApplicationCommandData().ID, "interactions carry the registered command's ID")
	checkAnswers(t, s)
}

func TestFailAndPermissions(t *testing.T) {
	tests := []struct {
		name  string
		opts  []discordtest.Option
		setup func(s *discordtest.Server)
		code  int
	}{
		{"injected once", nil, func(s *discordtest.Server) {
			s.Fail("POST", "/channels/{channel_id}/messages", discordtest.ErrMissingPermissions, 1)
		}, discordgo.ErrCodeMissingPermissions},
		{"injected for a path", nil, func(s *discordtest.Server) {
			s.Fail("POST", "/channels/"+s.Channels()[0].ID+"/messages", discordtest.ErrMissingAccess, 0)
		}, discordgo.ErrCodeMissingAccess},
		{"bot lacks Send Messages", []discordtest.Option{discordtest.WithAppPermissions(discordgo.PermissionViewChannel)}, nil, discordgo.ErrCodeMissingPermissions},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := discordtest.New(t, tt.opts...)
			dg := s.Session()
			ch := s.AddChannel("games")
			if tt.setup != nil {
				tt.setup(s)
			}
			_, err := dg.ChannelMessageSend(ch.ID, "hello")
			var rest *discordgo.RESTError
			require.True(t, errors.As(err, &rest), "error %v", err)
			assert.Equal(t, http.StatusForbidden, rest.Response.StatusCode)
			assert.Equal(t, tt.code, rest.Message.Code)
			assert.Empty(t, s.Messages(ch.ID))
			reqs := s.RequestsTo("POST", "/channels/{channel_id}/messages")
			require.Len(t, reqs, 1)
			assert.Equal(t, http.StatusForbidden, reqs[0].Status)
		})
	}
	t.Run("cleared", func(t *testing.T) {
		s := discordtest.New(t)
		dg := s.Session()
		ch := s.AddChannel("games")
		s.Fail("POST", "/channels/{channel_id}/messages", discordtest.ErrServerError, 0)
		s.ClearFailures()
		_, err := dg.ChannelMessageSend(ch.ID, "hello")
		assert.NoError(t, err)
	})
}

// TestHold: a held request is handled only once released, then as usual,
// while others go through; Close releases what is still held.
func TestHold(t *testing.T) {
	s := discordtest.New(t)
	dg := s.Session()
	ch, other := s.AddChannel("games"), s.AddChannel("other") // discordgo sends one request at a time per channel
	held := s.Hold("POST", "/channels/{channel_id}/messages", 1)
	sent := make(chan error, 1)
	go func() {
		_, err := dg.ChannelMessageSend(ch.ID, "held")
		sent <- err
	}()
	held.Wait(t)
	_, err := dg.ChannelMessageSend(other.ID, "not held")
	require.NoError(t, err)
	assert.Empty(t, sent, "the held request has no answer yet")
	assert.Empty(t, s.Messages(ch.ID))
	assert.Len(t, s.Messages(other.ID), 1, "the request after it went through")
	held.Release()
	require.NoError(t, <-sent)
	require.Len(t, s.Messages(ch.ID), 1)
	assert.Equal(t, "held", s.Messages(ch.ID)[0].Content)

	held = s.Hold("POST", "/channels/{channel_id}/messages", 0)
	go func() {
		_, err := dg.ChannelMessageSend(ch.ID, "held until Close")
		sent <- err
	}()
	held.Wait(t)
	s.Close()
	<-sent // answered or failed, but not held for ever
}

func TestTransport(t *testing.T) {
	s := discordtest.New(t)
	req, err := http.NewRequest("GET", "https://discord.com/api/v10/users/@me", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bot "+s.Token())
	resp, err := s.Client().Do(req)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, s.URL()+"/api/v10", s.APIURL())
	require.Len(t, s.Requests(), 1)
	assert.Equal(t, "/users/@me", s.Requests()[0].Route)
}

// TestPrivateThreadNeedsJoining: the bot cannot post in a private thread it
// has not joined (50001 Missing Access); after PUT thread-members/@me it can.
func TestPrivateThreadNeedsJoining(t *testing.T) {
	dc := discordtest.New(t)
	s := dc.Session()
	th := dc.AddPrivateThread(dc.AddChannel("games").ID, "secret")
	_, err := s.ChannelMessageSend(th.ID, "hello")
	var rest *discordgo.RESTError
	require.ErrorAs(t, err, &rest)
	assert.Equal(t, discordgo.ErrCodeMissingAccess, rest.Message.Code)
	require.NoError(t, s.ThreadJoin(th.ID))
	_, err = s.ChannelMessageSend(th.ID, "hello")
	require.NoError(t, err, "a member may post")
	assert.Empty(t, dc.Violations(), "nothing Discord would refuse")
}
