package discordtest_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
)

// answer is a public type 4 response with content.
func answer(content string) *discordgo.InteractionResponse {
	return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: content}}
}

func TestInteractionsElsewhereSayWhereTheyCameFrom(t *testing.T) {
	s := discordtest.New(t)
	alice, bob, carol := s.AddUser("alice"), s.AddStranger("bob"), s.AddStranger("carol")
	home := s.AddChannel("games")
	tests := []struct {
		name    string
		channel *discordgo.Channel
		context discordgo.InteractionContextType
		owners  map[discordgo.ApplicationIntegrationType]string
		guild   bool
	}{
		{"server that added the bot", home, discordgo.InteractionContextGuild,
			map[discordgo.ApplicationIntegrationType]string{discordgo.ApplicationIntegrationGuildInstall: home.GuildID}, true},
		{"the bot's DM", s.DMChannel(alice.ID), discordgo.InteractionContextBotDM,
			map[discordgo.ApplicationIntegrationType]string{discordgo.ApplicationIntegrationGuildInstall: "0"}, false},
		{"a DM between users", s.AddPrivateChannel(alice, bob), discordgo.InteractionContextPrivateChannel,
			map[discordgo.ApplicationIntegrationType]string{discordgo.ApplicationIntegrationUserInstall: alice.ID}, false},
		{"a group DM", s.AddPrivateChannel(alice, bob, carol), discordgo.InteractionContextPrivateChannel,
			map[discordgo.ApplicationIntegrationType]string{discordgo.ApplicationIntegrationUserInstall: alice.ID}, false},
		{"a server without the bot", s.AddForeignChannel("elsewhere", true), discordgo.InteractionContextGuild,
			map[discordgo.ApplicationIntegrationType]string{discordgo.ApplicationIntegrationUserInstall: alice.ID}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			i := s.Command(tc.channel.ID, alice, "kulami")
			assert.Equal(t, tc.context, i.Context)
			assert.Equal(t, tc.owners, i.AuthorizingIntegrationOwners)
			assert.Equal(t, tc.guild, i.GuildID != "")
			user := i.User
			if i.Member != nil {
				user = i.Member.User
			}
			assert.Equal(t, alice.ID, user.ID, "the invoking user")
		})
	}
	group, ok := s.Channel(tests[3].channel.ID)
	require.True(t, ok)
	assert.Equal(t, discordgo.ChannelTypeGroupDM, group.Type)
	assert.Len(t, group.Recipients, 3)
}

func TestBotTokenCannotReachAChannelItIsNotIn(t *testing.T) {
	s := discordtest.New(t, discordtest.CollectViolations())
	alice, bob := s.AddUser("alice"), s.AddStranger("bob")
	for _, ch := range []*discordgo.Channel{s.AddPrivateChannel(alice, bob), s.AddPrivateChannel(alice, bob, s.AddStranger("carol")),
		s.AddForeignChannel("elsewhere", true)} {
		t.Run(fmt.Sprint(ch.Type, ch.GuildID != ""), func(t *testing.T) {
			identify(t, s)
			dg := s.Session()
			i := s.Command(ch.ID, alice, "kulami")
			s.SendInteraction(i)
			require.NoError(t, dg.InteractionRespond(i, answer("board")), "answering the interaction works")
			board := s.WaitOriginal(t, i.ID, func(*discordtest.Message) bool { return true })
			before := len(s.Violations())

			_, err := dg.ChannelMessageSend(ch.ID, "your move")
			assert.Equal(t, discordtest.ErrMissingAccess.Code, restCode(t, err), "post")
			_, err = dg.ChannelMessageEdit(ch.ID, board.ID, "edited")
			assert.Equal(t, discordtest.ErrMissingAccess.Code, restCode(t, err), "edit by the bot token")
			_, err = dg.ChannelMessages(ch.ID, 10, "", "", "")
			assert.Equal(t, discordtest.ErrMissingAccess.Code, restCode(t, err), "read")
			assert.Len(t, s.Violations(), before+3, "the bot knows from the interaction where it is: each is a violation")

			content := "edited"
			_, err = dg.InteractionResponseEdit(i, &discordgo.WebhookEdit{Content: &content})
			assert.NoError(t, err, "the interaction's token may edit its answer")
		})
	}
}

func TestAtMostFiveFollowupsForAUserInstall(t *testing.T) {
	tests := []struct {
		name         string
		elsewhere    bool
		refusedSixth bool
	}{
		{"user install only", true, true},
		{"guild install", false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := discordtest.New(t, discordtest.CollectViolations())
			alice, bob := s.AddUser("alice"), s.AddUser("bob")
			ch := s.AddChannel("games")
			if tc.elsewhere {
				ch = s.AddPrivateChannel(alice, bob)
			}
			identify(t, s)
			dg := s.Session()
			i := s.Command(ch.ID, alice, "kulami")
			s.SendInteraction(i)
			require.NoError(t, dg.InteractionRespond(i, answer("board")))
			for n := range 5 {
				_, err := dg.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: fmt.Sprint("followup ", n+1)})
				require.NoError(t, err)
			}
			_, err := dg.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: "followup 6"})
			if !tc.refusedSixth {
				assert.NoError(t, err)
				assert.Empty(t, s.Violations())
				return
			}
			assert.Equal(t, discordtest.ErrMaxFollowups.Code, restCode(t, err))
			assert.Len(t, s.Violations(), 1)
			assert.Len(t, s.Followups(i.ID), 5)
		})
	}
}

func TestTokenOfAUserInstallExpiresToo(t *testing.T) {
	s := discordtest.New(t)
	alice, bob := s.AddUser("alice"), s.AddStranger("bob")
	ch := s.AddPrivateChannel(alice, bob)
	identify(t, s)
	dg := s.Session()
	i := s.Command(ch.ID, alice, "kulami")
	s.SendInteraction(i)
	require.NoError(t, dg.InteractionRespond(i, answer("board")))
	s.Advance(15*time.Minute + time.Second)
	content := "later"
	_, err := dg.InteractionResponseEdit(i, &discordgo.WebhookEdit{Content: &content})
	assert.Equal(t, discordtest.ErrInvalidWebhookToken.Code, restCode(t, err))
	_, err = dg.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: "more"})
	assert.Equal(t, discordtest.ErrInvalidWebhookToken.Code, restCode(t, err))
	assert.Empty(t, s.Violations())
}

func TestAnswersForcedEphemeralWithoutUseExternalApps(t *testing.T) {
	tests := []struct {
		name         string
		externalApps bool
	}{
		{"allowed", true},
		{"forbidden", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := discordtest.New(t)
			alice := s.AddUser("alice")
			bob := s.AddStranger("bob")
			ch := s.AddForeignChannel("elsewhere", tc.externalApps)
			identify(t, s)
			dg := s.Session()
			i := s.Command(ch.ID, alice, "kulami")
			assert.Equal(t, tc.externalApps, i.Member.Permissions&discordgo.PermissionUseExternalApps != 0)
			s.SendInteraction(i)
			require.NoError(t, dg.InteractionRespond(i, answer("<@"+bob.ID+"> you are challenged")))
			f, err := dg.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: "<@" + bob.ID + "> your move"})
			require.NoError(t, err)
			original := s.WaitOriginal(t, i.ID, func(*discordtest.Message) bool { return true })
			followup, ok := s.Message(f.ID)
			require.True(t, ok)
			for _, m := range []*discordtest.Message{original, followup} {
				assert.Equal(t, !tc.externalApps, m.Flags&discordgo.MessageFlagsEphemeral != 0, m.Content)
			}
			assert.Equal(t, !tc.externalApps, s.WaitResponse(t, i.ID).Ephemeral())
			if tc.externalApps {
				assert.Len(t, s.Notifications(bob.ID), 2, "public answers notify")
			} else {
				assert.Empty(t, s.Notifications(bob.ID), "ephemeral answers notify nobody")
			}
			assert.Empty(t, s.Violations())
		})
	}
}

func TestDMOnlyToUsersTheBotCanReach(t *testing.T) {
	s := discordtest.New(t)
	member, stranger, installer := s.AddUser("alice"), s.AddStranger("bob"), s.AddStranger("carol")
	s.InstallToUser(installer.ID)
	dg := s.Session()
	tests := []struct {
		name string
		user *discordgo.User
		code int
	}{
		{"shares the server", member, 0},
		{"installed the app", installer, 0},
		{"neither", stranger, discordtest.ErrCannotSendToUser.Code},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dm, err := dg.UserChannelCreate(tc.user.ID)
			require.NoError(t, err)
			_, err = dg.ChannelMessageSend(dm.ID, "your move")
			if tc.code == 0 {
				assert.NoError(t, err)
				return
			}
			assert.Equal(t, tc.code, restCode(t, err))
		})
	}
	assert.Empty(t, s.Violations(), "the bot cannot know whom it may DM")
}

func TestMentionsInAGroupDMNotifyItsMembers(t *testing.T) {
	s := discordtest.New(t)
	alice, bob, carol, dave := s.AddUser("alice"), s.AddStranger("bob"), s.AddStranger("carol"), s.AddStranger("dave")
	ch := s.AddPrivateChannel(alice, bob, carol)
	identify(t, s)
	dg := s.Session()
	i := s.Command(ch.ID, alice, "kulami")
	s.SendInteraction(i)
	require.NoError(t, dg.InteractionRespond(i, answer(fmt.Sprintf("<@%s> <@%s> your move", bob.ID, dave.ID))))
	s.WaitOriginal(t, i.ID, func(*discordtest.Message) bool { return true })
	assert.Len(t, s.Notifications(bob.ID), 1, "a member of the group DM")
	assert.Empty(t, s.Notifications(dave.ID), "not in the group DM")
}

// TestAClickIsAuthorisedByTheInstallThatBeganIt checks that clicking a
// button where the bot is not a member installs nothing for the clicker:
// the click is authorised by the install of whoever ran the command at the
// start of the chain, even on a message that answered the clicker's own
// click, so a stranger who only clicks stays out of the bot's reach by DM.
func TestAClickIsAuthorisedByTheInstallThatBeganIt(t *testing.T) {
	s := discordtest.New(t)
	alice, dave := s.AddStranger("alice"), s.AddStranger("dave")
	dm := s.AddPrivateChannel(alice, dave)
	identify(t, s)
	dg := s.Session()
	cmd := s.Command(dm.ID, alice, "kulami")
	s.SendInteraction(cmd)
	require.NoError(t, dg.InteractionRespond(cmd, answer("a challenge")))
	challenge, ok := s.Original(cmd.ID)
	require.True(t, ok)

	click := s.Button(challenge.ID, dave, "kulami:accept")
	owners := map[discordgo.ApplicationIntegrationType]string{discordgo.ApplicationIntegrationUserInstall: alice.ID}
	assert.Equal(t, owners, click.AuthorizingIntegrationOwners, "alice's install, who ran the command")
	s.SendInteraction(click)
	require.NoError(t, dg.InteractionRespond(click, answer("the first board")))
	board, ok := s.Original(click.ID)
	require.True(t, ok)
	again := s.Button(board.ID, dave, "kulami:move")
	assert.Equal(t, owners, again.AuthorizingIntegrationOwners, "still alice's, on the answer to dave's click")

	out, err := dg.UserChannelCreate(dave.ID)
	require.NoError(t, err)
	_, err = dg.ChannelMessageSend(out.ID, "your move")
	assert.Equal(t, discordtest.ErrCannotSendToUser.Code, restCode(t, err), "dave installed nothing")
	assert.Empty(t, s.Violations())
}
