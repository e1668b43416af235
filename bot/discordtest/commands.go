package discordtest

import (
	"encoding/json"

	"github.com/bwmarrin/discordgo"
)

// Commands returns the application commands the bot registered by bulk overwrite, as Discord answered
// them: in the guild for guildID, or the global ones for "".
func (s *Server) Commands(guildID string) []*discordgo.ApplicationCommand {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*discordgo.ApplicationCommand
	if b := s.commands[guildID]; b != nil {
		if err := json.Unmarshal(b, &out); err != nil {
			panic("discordtest: " + err.Error())
		}
	}
	return out
}

// overwriteCommands replaces the commands of a guild ("" for global) and answers them as Discord does:
// with IDs (kept for names registered before), application_id, version and the defaults filled in.
func (s *Server) overwriteCommands(c *call, guildID string) reply {
	if c.params["application_id"] != s.appID {
		return fail(errNotYourApp)
	}
	if guildID != "" && guildID != s.guildID {
		return fail(errUnknownGuild)
	}
	v, err := decodeAny(c.body) // null or an array of objects, as the schema checked
	if err != nil {
		return fail(errInvalidBody)
	}
	in, _ := dropNulls(v).([]any)
	old := map[string]string{}
	var prev []struct{ ID, Name string }
	_ = json.Unmarshal(s.commands[guildID], &prev)
	for _, p := range prev {
		old[p.Name] = p.ID
	}
	out := []any{}
	for _, x := range in {
		cmd, _ := x.(map[string]any)
		name, _ := cmd["name"].(string)
		id := old[name]
		if id == "" {
			id = s.newID()
		}
		r := map[string]any{
			"id":                         id,
			"application_id":             s.appID,
			"version":                    s.newID(),
			"type":                       1,
			"name":                       name,
			"description":                "",
			"default_member_permissions": nil,
			"nsfw":                       false,
			"contexts":                   nil,
			"integration_types":          []int{0},
		}
		for _, k := range []string{"type", "description", "options", "name_localizations", "description_localizations", "contexts", "integration_types", "nsfw"} {
			if v, ok := cmd[k]; ok && v != nil {
				r[k] = v
			}
		}
		if p, ok := cmd["default_member_permissions"].(string); ok {
			r["default_member_permissions"] = p
		} else if n, ok := cmd["default_member_permissions"].(json.Number); ok {
			r["default_member_permissions"] = n.String()
		}
		if guildID != "" {
			r["guild_id"] = guildID
		} else {
			r["dm_permission"] = true
			if v, ok := cmd["dm_permission"].(bool); ok {
				r["dm_permission"] = v
			}
		}
		out = append(out, r)
	}
	s.commands[guildID] = mustJSON(out)
	return jsonOK(out)
}

func init() {
	handle("PUT /applications/{application_id}/commands", func(s *Server, c *call) reply {
		return s.overwriteCommands(c, "")
	})
	handle("PUT /applications/{application_id}/guilds/{guild_id}/commands", func(s *Server, c *call) reply {
		return s.overwriteCommands(c, c.params["guild_id"])
	})
	list := func(s *Server, c *call) reply {
		if c.params["application_id"] != s.appID {
			return fail(errNotYourApp)
		}
		if b := s.commands[c.params["guild_id"]]; b != nil {
			return jsonOK(json.RawMessage(b))
		}
		return jsonOK([]any{})
	}
	handle("GET /applications/{application_id}/commands", list)
	handle("GET /applications/{application_id}/guilds/{guild_id}/commands", list)
	handle("GET /gateway", func(s *Server, c *call) reply {
		return jsonOK(map[string]any{"url": s.GatewayURL()})
	})
	handle("GET /gateway/bot", func(s *Server, c *call) reply {
		return jsonOK(map[string]any{
			"url":    s.GatewayURL(),
			"shards": 1,
			"session_start_limit": map[string]any{
				"total": 1000, "remaining": 1000, "reset_after": 86400000, "max_concurrency": 1,
			},
		})
	})
}
