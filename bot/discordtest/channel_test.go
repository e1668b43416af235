package discordtest_test

import (
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
)

func TestThreadsAutoArchive(t *testing.T) {
	s := discordtest.New(t)
	games := s.AddChannel("games")
	thread := s.AddThread(games.ID, "alice vs bob") // auto_archive_duration 1440
	dg := s.Session()
	archived := func() bool {
		ch, ok := s.Channel(thread.ID)
		require.True(t, ok)
		return ch.ThreadMetadata.Archived
	}

	s.Advance(23 * time.Hour)
	assert.False(t, archived(), "quiet for less than its auto_archive_duration")
	_, err := dg.ChannelMessageSend(thread.ID, "your move")
	require.NoError(t, err)
	s.Advance(23 * time.Hour)
	assert.False(t, archived(), "a message restarts the period")
	s.Advance(time.Hour)
	assert.True(t, archived(), "a day without a message")

	_, err = dg.ChannelMessageSend(thread.ID, "your move")
	require.NoError(t, err, "the bot may post in an archived thread")
	assert.False(t, archived(), "posting unarchives it")
	assert.Empty(t, s.Violations())
}

func TestLockedThread(t *testing.T) {
	tests := []struct {
		name  string
		perms int64
		ok    bool
	}{
		{"without Manage Threads", discordtest.DefaultAppPermissions, false},
		{"with Manage Threads", discordtest.DefaultAppPermissions | discordgo.PermissionManageThreads, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := discordtest.New(t, discordtest.WithAppPermissions(tc.perms))
			thread := s.AddThread(s.AddChannel("games").ID, "alice vs bob")
			dg := s.Session()
			locked, archived := true, true
			_, err := dg.ChannelEdit(thread.ID, &discordgo.ChannelEdit{Locked: &locked, Archived: &archived})
			require.NoError(t, err)

			_, err = dg.ChannelMessageSend(thread.ID, "your move")
			ch, _ := s.Channel(thread.ID)
			if tc.ok {
				assert.NoError(t, err)
				assert.False(t, ch.ThreadMetadata.Archived)
				return
			}
			assert.Equal(t, discordgo.ErrCodeMissingPermissions, restCode(t, err))
			assert.True(t, ch.ThreadMetadata.Archived, "a locked thread stays archived")
		})
	}
}

func TestDeleteChannel(t *testing.T) {
	s := discordtest.New(t)
	games := s.AddChannel("games")
	thread := s.AddThread(games.ID, "alice vs bob")
	other := s.AddChannel("other")
	dg := s.Session()
	m, err := dg.ChannelMessageSend(games.ID, "board")
	require.NoError(t, err)
	i := s.Command(games.ID, s.AddUser("alice"), "kulami")
	identify(t, s)
	s.SendInteraction(i)

	s.DeleteChannel(games.ID)
	calls := map[string]func() error{
		"get":      func() error { _, err := dg.Channel(games.ID); return err },
		"send":     func() error { _, err := dg.ChannelMessageSend(games.ID, "hi"); return err },
		"edit":     func() error { _, err := dg.ChannelMessageEdit(games.ID, m.ID, "hi"); return err },
		"thread":   func() error { _, err := dg.ChannelMessageSend(thread.ID, "hi"); return err },
		"callback": func() error { return dg.InteractionRespond(i, deferred) },
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, discordgo.ErrCodeUnknownChannel, restCode(t, call()))
		})
	}
	assert.Empty(t, s.Violations(), "the bot cannot know the channel is gone")
	checkAnswers(t, s)
	ids := []string{}
	for _, ch := range s.Channels() {
		ids = append(ids, ch.ID)
	}
	assert.Equal(t, []string{other.ID}, ids, "the channel and its threads are gone")
	kept, ok := s.Message(m.ID)
	require.True(t, ok, "its messages stay readable for the test")
	assert.Equal(t, "board", kept.Content)
}
