package discordtest

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

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
	if problems := s.spec.commandProblems(in); len(problems) > 0 {
		for _, p := range problems {
			s.violate(c.method, c.path, c.route, p)
		}
		return fail(errInvalidBody)
	}
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

// commandEndpoints are the operations on application commands, and the gateway's address.
var commandEndpoints = []endpoint{
	{"PUT /applications/{application_id}/commands", (*Server).overwriteGlobalCommands},
	{"PUT /applications/{application_id}/guilds/{guild_id}/commands", (*Server).overwriteGuildCommands},
	{"GET /applications/{application_id}/commands", (*Server).getCommands},
	{"GET /applications/{application_id}/guilds/{guild_id}/commands", (*Server).getCommands},
	{"GET /gateway", (*Server).getGateway},
	{"GET /gateway/bot", (*Server).getGatewayBot},
}

// overwriteGlobalCommands replaces the application's global commands.
func (s *Server) overwriteGlobalCommands(c *call) reply {
	return s.overwriteCommands(c, "")
}

// overwriteGuildCommands replaces the application's commands in a guild.
func (s *Server) overwriteGuildCommands(c *call) reply {
	return s.overwriteCommands(c, c.params["guild_id"])
}

// getCommands answers the application's commands, global or in a guild.
func (s *Server) getCommands(c *call) reply {
	if c.params["application_id"] != s.appID {
		return fail(errNotYourApp)
	}
	if b := s.commands[c.params["guild_id"]]; b != nil {
		return jsonOK(json.RawMessage(b))
	}
	return jsonOK([]any{})
}

// getGateway answers the gateway's URL.
func (s *Server) getGateway(*call) reply {
	return jsonOK(map[string]any{"url": s.GatewayURL()})
}

// getGatewayBot answers the gateway's URL, with one shard and the session start limit.
func (s *Server) getGatewayBot(*call) reply {
	return jsonOK(map[string]any{
		"url":    s.GatewayURL(),
		"shards": 1,
		"session_start_limit": map[string]any{
			"total": 1000, "remaining": 1000, "reset_after": 86400000, "max_concurrency": 1,
		},
	})
}

// commandName is Discord's rule for the names of chat commands and their options, and for their
// name_localizations: letters, digits, - and _ (with the Devanagari and Thai scripts), 1 to 32 of them,
// in lower case where a letter has one (Discord's docs, "Application Command Naming"; the OpenAPI
// description checks only the length).
var commandName = regexp.MustCompile(`^[-_\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

// commandProblems returns what Discord's docs refuse in a list of application commands beyond the
// OpenAPI description, which leaves the keys of localizations and the form of names open: a
// localization for a locale that is not one of Discord's (AvailableLocalesEnum), a chat command's or
// option's name or localized name that breaks the naming rule, and two commands, or two options of
// one command or subcommand, with the same name, or the same localized name in a locale.
func (sp *spec) commandProblems(cmds []any) []string {
	var problems []string
	report := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	// locales checks the keys of an object's localizations.
	locales := func(where string, obj map[string]any) {
		for _, k := range []string{"name_localizations", "description_localizations"} {
			m, _ := obj[k].(map[string]any)
			for loc := range m {
				if !sp.locales[loc] {
					report("%s.%s: %q is not a Discord locale", where, k, loc)
				}
			}
		}
	}
	// siblings checks the names of commands of a kind, or of the options of one command or subcommand,
	// given by where they are: if chat is set against the naming rule, and that they differ in every
	// locale.
	type item struct {
		where string
		obj   map[string]any
	}
	var siblings func(list []item, chat bool)
	siblings = func(list []item, chat bool) {
		seen := map[string]string{} // locale + "\x00" + name → where it was
		for _, it := range list {
			here, obj := it.where, it.obj
			locales(here, obj)
			names := map[string]any{"": obj["name"]}
			m, _ := obj["name_localizations"].(map[string]any)
			for loc, n := range m {
				names[loc] = n
			}
			for loc, v := range names {
				name, _ := v.(string)
				field := here + ".name"
				if loc != "" {
					field = here + ".name_localizations." + loc
				}
				if chat && (!commandName.MatchString(name) || strings.ToLower(name) != name) {
					report("%s: %q is not a valid name (lower case letters, digits, - and _, 1 to 32)", field, name)
				}
				key := loc + "\x00" + name
				if other, dup := seen[key]; dup {
					report("%s: %q is also the name of %s", field, name, other)
				}
				seen[key] = here
			}
			opts, _ := obj["options"].([]any)
			var sub []item
			for j, o := range opts {
				om, _ := o.(map[string]any)
				sub = append(sub, item{fmt.Sprintf("%s.options[%d]", here, j), om})
			}
			siblings(sub, chat)
			chs, _ := obj["choices"].([]any)
			for j, c := range chs {
				ch, _ := c.(map[string]any)
				locales(fmt.Sprintf("%s.choices[%d]", here, j), ch)
			}
		}
	}
	byType := map[string][]item{}
	for i, x := range cmds {
		obj, _ := x.(map[string]any)
		t := "1" // CHAT_INPUT, the default
		if obj["type"] != nil {
			t = fmt.Sprint(obj["type"])
		}
		byType[t] = append(byType[t], item{fmt.Sprintf("[%d]", i), obj})
	}
	for t, list := range byType {
		siblings(list, t == "1")
	}
	return problems
}
