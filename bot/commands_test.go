package bot_test

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot"
	"github.com/kulami/kulami/bot/i18n"
)

// commandName is Discord's rule for the names of chat commands and their
// options (https://discord.com/developers/docs/interactions/application-commands#application-command-object-application-command-naming),
// with Go's names of the scripts: lower case where a letter has one.
var commandName = regexp.MustCompile(`^[-_\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

// entry is one command, subcommand, option or choice as users read it.
type entry struct {
	path         string // e.g. challenge.layout, or challenge.layout=square for a choice
	id           string // its messages' id (bot.OptionID), e.g. command.challenge.layout
	name, desc   string
	names, descs map[discordgo.Locale]string
	choice       bool
	option       bool // an option, not a command, subcommand or group
}

// levels returns the entries of the command tree level by level: the
// command, the subcommands, the options of each subcommand, the choices of
// each option. Names must be unique within a level.
func levels(cmd *discordgo.ApplicationCommand) [][]entry {
	root := "command" // /kulami's messages; another command's are under command.<name>
	if cmd.Name != "kulami" {
		root += "." + cmd.Name
	}
	deref := func(m *map[discordgo.Locale]string) map[discordgo.Locale]string {
		if m == nil {
			return nil
		}
		return *m
	}
	out := [][]entry{{{path: "", id: root, name: cmd.Name, desc: cmd.Description, names: deref(cmd.NameLocalizations), descs: deref(cmd.DescriptionLocalizations)}}}
	var walk func(prefix, prefixID string, opts []*discordgo.ApplicationCommandOption)
	walk = func(prefix, prefixID string, opts []*discordgo.ApplicationCommandOption) {
		var level []entry
		for _, o := range opts {
			path, id := strings.TrimPrefix(prefix+"."+o.Name, "."), bot.OptionID(prefixID, o.Name)
			option := o.Type != discordgo.ApplicationCommandOptionSubCommand && o.Type != discordgo.ApplicationCommandOptionSubCommandGroup
			level = append(level, entry{path: path, id: id, name: o.Name, desc: o.Description, names: o.NameLocalizations, descs: o.DescriptionLocalizations, option: option})
			walk(path, id, o.Options)
			if len(o.Choices) > 0 {
				var cs []entry
				for _, c := range o.Choices {
					cs = append(cs, entry{path: path + "=" + c.Value.(string), name: c.Name, names: c.NameLocalizations, choice: true})
				}
				out = append(out, cs)
			}
		}
		if len(level) > 0 {
			out = append(out, level)
		}
	}
	walk("", root, cmd.Options)
	return out
}

// TestCommandLocalizations checks the registration's names and
// descriptions in every language against Discord's rules: every entry is
// localized for each Discord locale of each language but English, names
// are valid and unique at their level in each locale, descriptions and
// choice names have 1 to 100 characters, and the English message file
// names the commands as the handlers know them.
func TestCommandLocalizations(t *testing.T) {
	cmds := bot.Commands()
	require.Len(t, cmds, 2, "/kulami and /puzzle")
	var want []discordgo.Locale
	for _, l := range i18n.Langs() {
		if l != i18n.English {
			for _, loc := range l.DiscordLocales() {
				want = append(want, discordgo.Locale(loc))
			}
		}
	}
	slices.Sort(want)
	for _, loc := range []discordgo.Locale{"fr", "de", "es-ES", "es-419"} {
		require.Contains(t, want, loc)
	}
	for _, level := range slices.Concat(levels(cmds[0]), levels(cmds[1])) {
		for _, loc := range append([]discordgo.Locale{""}, want...) {
			seen := map[string]string{}
			for _, e := range level {
				name, desc := e.name, e.desc
				if loc != "" {
					name, desc = e.names[loc], e.descs[loc]
				}
				where := e.path + " (" + string(loc) + ")"
				if e.choice {
					assert.True(t, utf8.RuneCountInString(name) >= 1 && utf8.RuneCountInString(name) <= 100, "%s: choice name %q has 1 to 100 characters", where, name)
				} else {
					assert.Regexp(t, commandName, name, "%s: a name is 1 to 32 letters, digits, - or _", where)
					assert.Equal(t, strings.ToLower(name), name, "%s: a name is lower case", where)
					assert.True(t, utf8.RuneCountInString(desc) >= 1 && utf8.RuneCountInString(desc) <= 100, "%s: description %q has 1 to 100 characters", where, desc)
					if loc != "" {
						assert.NotEqual(t, e.desc, desc, "%s: the description is translated", where)
					}
				}
				if other, dup := seen[name]; dup {
					t.Errorf("%s: name %q is also the name of %s", where, name, other)
				}
				seen[name] = e.path
			}
		}
		for _, e := range level {
			assert.ElementsMatch(t, want, slices.Collect(maps.Keys(e.names)), "%s: names in every locale", e.path)
			if !e.choice {
				assert.ElementsMatch(t, want, slices.Collect(maps.Keys(e.descs)), "%s: descriptions in every locale", e.path)
			}
		}
	}
}

// TestSameNameEverywhere: an option that several subcommands take
// (layout, rules, move_time, player, game, tournament…) has the same name
// in each language wherever it appears, and so has a subcommand that two
// commands or groups have (stats in /kulami and /puzzle): a player who
// learnt it once types it everywhere.
func TestSameNameEverywhere(t *testing.T) {
	type key struct {
		option bool
		name   string
	}
	seen := map[key][]entry{}
	for _, level := range slices.Concat(levels(bot.Commands()[0]), levels(bot.Commands()[1])) {
		for _, e := range level {
			if !e.choice && e.path != "" {
				k := key{e.option, e.name}
				seen[k] = append(seen[k], e)
			}
		}
	}
	shared := 0
	for k, es := range seen {
		if len(es) < 2 {
			continue
		}
		shared++
		for loc, name := range es[0].names {
			for _, e := range es[1:] {
				assert.Equal(t, name, e.names[loc], "%s (%s): %q is named as in %s, %q, everywhere", e.id, loc, k.name, es[0].id, name)
			}
		}
	}
	assert.Positive(t, shared, "some options are shared")
}

// TestCommandMessages: each subcommand and option has its messages, the
// English file gives the names the handlers know (Discord sends them
// whatever the user's language), and en.toml has no command message the
// registration does not use.
func TestCommandMessages(t *testing.T) {
	var en struct {
		Command map[string]any
	}
	_, err := toml.DecodeFile("i18n/locales/en.toml", &en)
	require.NoError(t, err)
	choices, _ := en.Command["choices"].(map[string]any)
	require.NotEmpty(t, choices)

	used := map[string]bool{}
	for _, level := range slices.Concat(levels(bot.Commands()[0]), levels(bot.Commands()[1])) {
		for _, e := range level {
			if e.choice {
				// A choice is named by command.choices.<set>.<value>; find
				// its set by its English name.
				opt, value, _ := strings.Cut(e.path, "=")
				if opt == "settings.language" {
					continue // a language is named by language.name of its own file
				}
				found := false
				for set, texts := range choices {
					if texts.(map[string]any)[value] == e.name {
						used["command.choices."+set+"."+value], found = true, true
					}
				}
				if !found {
					// A proper name, such as a language's own, reads the same in every language.
					for loc, n := range e.names {
						assert.Equal(t, e.name, n, "%s: en.toml has no choice %q, so it must be a name that reads the same in every language (%s)", e.path, e.name, loc)
					}
				}
				continue
			}
			id := e.id
			for _, m := range []string{id + ".name", id + ".desc"} {
				assert.True(t, i18n.Has(m), "en.toml has %s", m)
				used[m] = true
			}
			assert.Equal(t, e.name, i18n.English.T(id+".name"), "en.toml names %s as the bot knows it", id)
			assert.Equal(t, i18n.English.T(id+".desc"), e.desc)
		}
	}
	var ids []string
	var flatten func(prefix string, v any)
	flatten = func(prefix string, v any) {
		if m, ok := v.(map[string]any); ok {
			for k, v := range m {
				flatten(prefix+"."+k, v)
			}
			return
		}
		ids = append(ids, prefix)
	}
	flatten("command", en.Command)
	slices.Sort(ids)
	for _, id := range ids {
		assert.True(t, used[id], "en.toml has %s, which the registration does not use", id)
	}
}

// TestOptionID: an option's messages are under its command's id, but an
// option named like one of the command's own messages (name, desc) is
// under options., so that its table does not clash with that message;
// the tournament's name option is one, localized in every language.
func TestOptionID(t *testing.T) {
	for _, tc := range []struct{ prefix, name, want string }{
		{"command", "challenge", "command.challenge"},
		{"command.challenge", "layout", "command.challenge.layout"},
		{"command.tournament.create", "name", "command.tournament.create.options.name"},
		{"command.tournament.create", "desc", "command.tournament.create.options.desc"},
		{"command.tournament.create", "names", "command.tournament.create.names"},
	} {
		assert.Equal(t, tc.want, bot.OptionID(tc.prefix, tc.name), "%s %s", tc.prefix, tc.name)
	}
	found := false
	for _, level := range levels(bot.Commands()[0]) {
		for _, e := range level {
			if e.path == "tournament.create.name" {
				assert.Equal(t, "name", e.name, "the option is called name, as the issue writes")
				assert.Equal(t, "nom", e.names["fr"])
				assert.Equal(t, "nombre", e.names["es-ES"])
				assert.Equal(t, "Der Name des Turniers (bis 100 Zeichen, keine Erwähnungen)", e.descs["de"])
				found = true
			}
		}
	}
	assert.True(t, found, "/kulami tournament create has a name option")
}
