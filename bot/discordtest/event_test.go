package discordtest_test

import (
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
)

// external is a valid external scheduled event from start to an hour
// later.
func external(start time.Time) *discordgo.GuildScheduledEventParams {
	end := start.Add(time.Hour)
	return &discordgo.GuildScheduledEventParams{
		Name: "Autumn Swiss", Description: "4 rounds", ScheduledStartTime: &start, ScheduledEndTime: &end,
		PrivacyLevel: discordgo.GuildScheduledEventPrivacyLevelGuildOnly, EntityType: discordgo.GuildScheduledEventEntityTypeExternal,
		EntityMetadata: &discordgo.GuildScheduledEventEntityMetadata{Location: "#games"},
	}
}

func TestScheduledEvents(t *testing.T) {
	start := time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)
	t.Run("created with Manage Events", func(t *testing.T) {
		s := discordtest.New(t, discordtest.WithAppPermissions(discordtest.DefaultAppPermissions|discordgo.PermissionManageEvents))
		ev, err := s.Session().GuildScheduledEventCreate(s.GuildID(), external(start))
		require.NoError(t, err)
		assert.Equal(t, "Autumn Swiss", ev.Name)
		require.Len(t, s.ScheduledEvents(), 1)
		assert.Equal(t, ev.ID, s.ScheduledEvents()[0].ID)
		assert.True(t, s.ScheduledEvents()[0].Start.Equal(start))
		require.NoError(t, s.Session().GuildScheduledEventDelete(s.GuildID(), ev.ID))
		assert.Empty(t, s.ScheduledEvents())
		err = s.Session().GuildScheduledEventDelete(s.GuildID(), ev.ID)
		assert.Equal(t, 10070, restCode(t, err), "Unknown Guild Scheduled Event")
		assert.Empty(t, s.Violations())
	})
	t.Run("refused without it", func(t *testing.T) {
		s := discordtest.New(t)
		_, err := s.Session().GuildScheduledEventCreate(s.GuildID(), external(start))
		assert.Equal(t, discordgo.ErrCodeMissingPermissions, restCode(t, err))
		assert.Empty(t, s.ScheduledEvents())
	})
	for _, tc := range []struct {
		name   string
		change func(*discordgo.GuildScheduledEventParams)
	}{
		{"an external event without an end", func(p *discordgo.GuildScheduledEventParams) { p.ScheduledEndTime = nil }},
		{"an external event without a location", func(p *discordgo.GuildScheduledEventParams) { p.EntityMetadata = nil }},
		{"an end before the start", func(p *discordgo.GuildScheduledEventParams) {
			p.ScheduledEndTime = &start
			p.ScheduledStartTime = ptr(start.Add(time.Hour))
		}},
		{"a voice event", func(p *discordgo.GuildScheduledEventParams) {
			p.EntityType, p.ChannelID = discordgo.GuildScheduledEventEntityTypeVoice, "123"
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := discordtest.New(t, discordtest.CollectViolations(), discordtest.WithAppPermissions(discordgo.PermissionManageEvents))
			p := external(start)
			tc.change(p)
			_, err := s.Session().GuildScheduledEventCreate(s.GuildID(), p)
			assert.Error(t, err)
			assert.NotEmpty(t, s.Violations(), "the fake says what is wrong")
			assert.Empty(t, s.ScheduledEvents())
		})
	}
}

func ptr[T any](v T) *T { return &v }
