package discordtest_test

import (
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
)

// notified returns the users notified by the mentions of a message, and why the others were not.
func notified(s *discordtest.Server, messageID string) (ids []string, why map[string]string) {
	why = map[string]string{}
	for _, m := range s.Mentions() {
		if m.MessageID != messageID {
			continue
		}
		if m.Notified {
			ids = append(ids, m.UserID)
		} else {
			why[m.UserID] = m.Why
		}
	}
	return ids, why
}

func TestChannelMessagesNotify(t *testing.T) {
	s := discordtest.New(t)
	games := s.AddChannel("games")
	alice, bob := s.AddUser("alice"), s.AddUser("bob")
	dg := s.Session()
	both := "<@" + alice.ID + "> <@!" + bob.ID + ">, your move"
	none := []discordgo.AllowedMentionType{}

	tests := []struct {
		name    string
		allowed *discordgo.MessageAllowedMentions
		want    []string
		why     map[string]string
	}{
		{"default: every mentioned user", nil, []string{alice.ID, bob.ID}, map[string]string{}},
		{"parse users", &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{discordgo.AllowedMentionTypeUsers}}, []string{alice.ID, bob.ID}, map[string]string{}},
		{"listed users", &discordgo.MessageAllowedMentions{Parse: none, Users: []string{bob.ID}}, []string{bob.ID}, map[string]string{alice.ID: discordtest.NotNotifiedAllowedMentions}},
		{"nobody", &discordgo.MessageAllowedMentions{Parse: none}, nil, map[string]string{alice.ID: discordtest.NotNotifiedAllowedMentions, bob.ID: discordtest.NotNotifiedAllowedMentions}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := dg.ChannelMessageSendComplex(games.ID, &discordgo.MessageSend{Content: both, AllowedMentions: tc.allowed})
			require.NoError(t, err)
			ids, why := notified(s, m.ID)
			assert.Equal(t, tc.want, ids)
			assert.Equal(t, tc.why, why)
			got, _ := s.Message(m.ID)
			assert.Equal(t, tc.want, got.Notified)
		})
	}

	t.Run("an edit notifies nobody", func(t *testing.T) {
		m, err := dg.ChannelMessageSend(games.ID, "Game on")
		require.NoError(t, err)
		_, err = dg.ChannelMessageEdit(games.ID, m.ID, both)
		require.NoError(t, err)
		ids, why := notified(s, m.ID)
		assert.Empty(t, ids)
		assert.Equal(t, map[string]string{alice.ID: discordtest.NotNotifiedEdit, bob.ID: discordtest.NotNotifiedEdit}, why)
	})
	t.Run("strangers and the author", func(t *testing.T) {
		m, err := dg.ChannelMessageSend(games.ID, "<@12345> <@"+s.AppID()+">")
		require.NoError(t, err)
		_, why := notified(s, m.ID)
		assert.Equal(t, map[string]string{"12345": discordtest.NotNotifiedCannotSee, s.AppID(): discordtest.NotNotifiedAuthor}, why)
	})
	t.Run("in a DM only the recipient", func(t *testing.T) {
		dm := s.DMChannel(bob.ID)
		m, err := dg.ChannelMessageSend(dm.ID, both)
		require.NoError(t, err)
		ids, why := notified(s, m.ID)
		assert.Equal(t, []string{bob.ID}, ids)
		assert.Equal(t, map[string]string{alice.ID: discordtest.NotNotifiedCannotSee}, why)
	})
	t.Run("a DM notifies its recipient unmentioned, unless silent", func(t *testing.T) {
		dm := s.DMChannel(bob.ID)
		m, err := dg.ChannelMessageSend(dm.ID, "Your move")
		require.NoError(t, err)
		ids, _ := notified(s, m.ID)
		assert.Equal(t, []string{bob.ID}, ids, "a DM notifies without a mention")
		m, err = dg.ChannelMessageSendComplex(dm.ID, &discordgo.MessageSend{Content: "Your move", Flags: discordgo.MessageFlagsSuppressNotifications})
		require.NoError(t, err)
		ids, why := notified(s, m.ID)
		assert.Empty(t, ids)
		assert.Equal(t, map[string]string{bob.ID: discordtest.NotNotifiedSilent}, why)
	})
	t.Run("a silent message notifies nobody", func(t *testing.T) {
		m, err := dg.ChannelMessageSendComplex(games.ID, &discordgo.MessageSend{Content: both, Flags: discordgo.MessageFlagsSuppressNotifications})
		require.NoError(t, err)
		ids, why := notified(s, m.ID)
		assert.Empty(t, ids)
		assert.Equal(t, map[string]string{alice.ID: discordtest.NotNotifiedSilent, bob.ID: discordtest.NotNotifiedSilent}, why)
	})
	t.Run("parse users with a list of users is refused", func(t *testing.T) {
		c := discordtest.New(t, discordtest.CollectViolations())
		ch := c.AddChannel("games")
		_, err := c.Session().ChannelMessageSendComplex(ch.ID, &discordgo.MessageSend{Content: "hi", AllowedMentions: &discordgo.MessageAllowedMentions{
			Parse: []discordgo.AllowedMentionType{discordgo.AllowedMentionTypeUsers}, Users: []string{bob.ID}}})
		assert.Equal(t, discordgo.ErrCodeInvalidFormBody, restCode(t, err))
		require.Len(t, c.Violations(), 1)
		assert.Contains(t, c.Violations()[0].Message, "mutually exclusive")
	})

	assert.Len(t, s.Notifications(bob.ID), 5, "three channel messages and two DMs")
	assert.Len(t, s.NotifiedIn(games.ID), 5)
}

func TestInteractionMessagesNotify(t *testing.T) {
	s := discordtest.New(t)
	games := s.AddChannel("games")
	alice, bob := s.AddUser("alice"), s.AddUser("bob")
	ping := "<@" + bob.ID + ">, your move"
	allowBob := &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}, Users: []string{bob.ID}}
	identify(t, s)
	dg := s.Session()
	// answer sends a command by alice, answers it with respond and returns the interaction.
	answer := func(t *testing.T, respond func(*discordgo.Interaction)) *discordgo.Interaction {
		t.Helper()
		i := s.Command(games.ID, alice, "kulami")
		s.SendInteraction(i)
		respond(i)
		return i
	}
	newMessage := func(flags discordgo.MessageFlags) func(*discordgo.Interaction) {
		return func(i *discordgo.Interaction) {
			require.NoError(t, dg.InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: ping, AllowedMentions: allowBob, Flags: flags}}))
		}
	}
	original := func(t *testing.T, i *discordgo.Interaction) string {
		m, ok := s.Original(i.ID)
		require.True(t, ok)
		return m.ID
	}

	t.Run("a message response notifies", func(t *testing.T) {
		i := answer(t, newMessage(0))
		ids, _ := notified(s, original(t, i))
		assert.Equal(t, []string{bob.ID}, ids)
	})
	t.Run("an ephemeral one does not", func(t *testing.T) {
		i := answer(t, newMessage(discordgo.MessageFlagsEphemeral))
		_, why := notified(s, original(t, i))
		assert.Equal(t, map[string]string{bob.ID: discordtest.NotNotifiedEphemeral}, why)
	})
	t.Run("the edit of a deferred response does not", func(t *testing.T) {
		i := answer(t, func(i *discordgo.Interaction) {
			require.NoError(t, dg.InteractionRespond(i, deferred))
			_, err := dg.InteractionResponseEdit(i, &discordgo.WebhookEdit{Content: &ping, AllowedMentions: allowBob})
			require.NoError(t, err)
		})
		_, why := notified(s, original(t, i))
		assert.Equal(t, map[string]string{bob.ID: discordtest.NotNotifiedEdit}, why)
	})
	t.Run("the followup replacing a deferred response does not, the next one does", func(t *testing.T) {
		var second *discordgo.Message
		i := answer(t, func(i *discordgo.Interaction) {
			require.NoError(t, dg.InteractionRespond(i, deferred))
			_, err := dg.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: ping, AllowedMentions: allowBob})
			require.NoError(t, err)
			second, err = dg.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: ping, AllowedMentions: allowBob})
			require.NoError(t, err)
		})
		_, why := notified(s, original(t, i))
		assert.Equal(t, map[string]string{bob.ID: discordtest.NotNotifiedEdit}, why)
		ids, _ := notified(s, second.ID)
		assert.Equal(t, []string{bob.ID}, ids)
	})
	t.Run("updating the clicked message does not", func(t *testing.T) {
		board, err := dg.ChannelMessageSendComplex(games.ID, &discordgo.MessageSend{Content: "board", Components: buttons("kulami:move:1")})
		require.NoError(t, err)
		i := s.Button(board.ID, alice, "kulami:move:1")
		s.SendInteraction(i)
		require.NoError(t, dg.InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage,
			Data: &discordgo.InteractionResponseData{Content: ping, AllowedMentions: allowBob}}))
		_, why := notified(s, board.ID)
		assert.Equal(t, map[string]string{bob.ID: discordtest.NotNotifiedEdit}, why)
	})
	assert.Len(t, s.Notifications(bob.ID), 2)
	assert.Empty(t, s.Notifications(alice.ID))
	assert.Empty(t, s.Violations())
	checkAnswers(t, s)
}
