package discordtest

import (
	"encoding/json"
	"time"

	"github.com/bwmarrin/discordgo"
)

// ScheduledEvent is a guild scheduled event the bot created.
type ScheduledEvent struct {
	ID, GuildID, Name, Description, Location string
	Start, End                               time.Time
}

// eventEndpoints are the operations on guild scheduled events.
var eventEndpoints = []endpoint{
	{"POST /guilds/{guild_id}/scheduled-events", (*Server).createScheduledEvent},
	{"DELETE /guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}", (*Server).deleteScheduledEvent},
}

// ScheduledEvents returns the scheduled events the bot created, oldest first.
func (s *Server) ScheduledEvents() []ScheduledEvent {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]ScheduledEvent(nil), s.events...)
}

// createScheduledEvent creates a scheduled event as Discord does: the bot needs Manage Events or Create
// Events; an external event (entity type 3, the only kind the fake takes) needs a location and an end
// after its start (Discord's field requirements by entity type), and no channel.
func (s *Server) createScheduledEvent(c *call) reply {
	if c.params["guild_id"] != s.guildID {
		return fail(errUnknownGuild)
	}
	if s.cfg.appPermissions&(discordgo.PermissionManageEvents|discordgo.PermissionCreateEvents|discordgo.PermissionAdministrator) == 0 {
		return fail(ErrMissingPermissions)
	}
	var b struct {
		Name               string     `json:"name"`
		Description        string     `json:"description"`
		ScheduledStartTime time.Time  `json:"scheduled_start_time"`
		ScheduledEndTime   *time.Time `json:"scheduled_end_time"`
		EntityType         int        `json:"entity_type"`
		ChannelID          *string    `json:"channel_id"`
		EntityMetadata     *struct {
			Location string `json:"location"`
		} `json:"entity_metadata"`
	}
	if err := json.Unmarshal(c.body, &b); err != nil {
		return fail(errInvalidBody)
	}
	switch {
	case b.EntityType != int(discordgo.GuildScheduledEventEntityTypeExternal):
		s.violate(c.method, c.path, c.route, "discordtest takes only external scheduled events (entity type 3)")
		return fail(errInvalidBody)
	case b.EntityMetadata == nil || b.EntityMetadata.Location == "", b.ScheduledEndTime == nil,
		b.ChannelID != nil && *b.ChannelID != "":
		s.violate(c.method, c.path, c.route, "an external scheduled event needs entity_metadata.location and scheduled_end_time, and no channel_id")
		return fail(errInvalidBody)
	case !b.ScheduledEndTime.After(b.ScheduledStartTime):
		s.violate(c.method, c.path, c.route, "a scheduled event must end after its start")
		return fail(errInvalidBody)
	}
	e := ScheduledEvent{ID: s.newID(), GuildID: s.guildID, Name: b.Name, Description: b.Description, Location: b.EntityMetadata.Location,
		Start: b.ScheduledStartTime, End: *b.ScheduledEndTime}
	s.events = append(s.events, e)
	s.notify()
	return jsonOK(map[string]any{
		"id": e.ID, "guild_id": e.GuildID, "name": e.Name, "description": e.Description, "creator_id": s.bot.ID,
		"scheduled_start_time": e.Start.Format(time.RFC3339), "scheduled_end_time": e.End.Format(time.RFC3339),
		"privacy_level": 2, "status": 1, "entity_type": 3, "entity_id": nil, "channel_id": nil,
		"entity_metadata": map[string]any{"location": e.Location}, "user_count": 0,
	})
}

// deleteScheduledEvent deletes a scheduled event: the bot needs Manage Events (or Create Events, for its
// own events, which are the only ones the fake has).
func (s *Server) deleteScheduledEvent(c *call) reply {
	if c.params["guild_id"] != s.guildID {
		return fail(errUnknownGuild)
	}
	if s.cfg.appPermissions&(discordgo.PermissionManageEvents|discordgo.PermissionCreateEvents|discordgo.PermissionAdministrator) == 0 {
		return fail(ErrMissingPermissions)
	}
	for i, e := range s.events {
		if e.ID == c.params["guild_scheduled_event_id"] {
			s.events = append(s.events[:i], s.events[i+1:]...)
			s.notify()
			return noContent()
		}
	}
	return fail(errUnknownScheduledEvent)
}

// errUnknownScheduledEvent is Discord's answer for an event that is not there.
var errUnknownScheduledEvent = APIError{Status: 404, Code: 10070, Message: "Unknown Guild Scheduled Event"}
