package bot

import (
	"fmt"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/engine/tournament"
)

// commandName is the slash command of everything but the puzzles; the
// rest is its subcommands.
const commandName = "kulami"

// puzzleCommandName is the slash command of the puzzles, /puzzle next,
// daily and stats: a command of its own because Discord takes at most 25
// subcommands (and groups) in one command, and /kulami has 25. Its
// subcommands are handled as the puzzle group of /kulami would be
// (subcommand).
const puzzleCommandName = "puzzle"

// moveTimes are the move clocks a challenge may choose, from 1 hour to 14
// days, by their option value.
var moveTimes = []struct {
	value, name string
	d           time.Duration
}{
	{"1h", "1 hour", time.Hour},
	{"3h", "3 hours", 3 * time.Hour},
	{"6h", "6 hours", 6 * time.Hour},
	{"12h", "12 hours", 12 * time.Hour},
	{"1d", "1 day", 24 * time.Hour},
	{"2d", "2 days", 48 * time.Hour},
	{"3d", "3 days", 72 * time.Hour},
	{"5d", "5 days", 120 * time.Hour},
	{"7d", "7 days", 168 * time.Hour},
	{"14d", "14 days", 336 * time.Hour},
}

// parseMoveTime reads a move-time option value.
func parseMoveTime(v string) (time.Duration, error) {
	for _, m := range moveTimes {
		if m.value == v {
			return m.d, nil
		}
	}
	return 0, fmt.Errorf("unknown move time %q", v)
}

// choices are the choices of an option with the given values, named in
// every language by the messages command.choices.<set>.<value>.
func choices(set string, values ...string) []*discordgo.ApplicationCommandOptionChoice {
	var out []*discordgo.ApplicationCommandOptionChoice
	for _, v := range values {
		id := "command.choices." + set + "." + v
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: i18n.English.T(id), NameLocalizations: localizations(id), Value: v})
	}
	return out
}

// languageChoices are the languages the bot speaks, each named in itself
// in every language.
func languageChoices() []*discordgo.ApplicationCommandOptionChoice {
	var out []*discordgo.ApplicationCommandOptionChoice
	for _, l := range i18n.Langs() {
		name := l.Name()
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: name, NameLocalizations: localizedBy(func(i18n.Lang) string { return name }), Value: string(l)})
	}
	return out
}

func moveTimeChoices() []*discordgo.ApplicationCommandOptionChoice {
	var values []string
	for _, m := range moveTimes {
		values = append(values, m.value)
	}
	return choices("move_time", values...)
}

// sub is a subcommand; its description comes from the message files (see
// localize).
func sub(name string, options ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
	if options == nil {
		options = []*discordgo.ApplicationCommandOption{}
	}
	return &discordgo.ApplicationCommandOption{
		Type:    discordgo.ApplicationCommandOptionSubCommand,
		Name:    name,
		Options: options,
	}
}

// opt is an option of a subcommand; its description comes from the
// message files (see localize).
func opt(t discordgo.ApplicationCommandOptionType, name string, required bool, ch ...*discordgo.ApplicationCommandOptionChoice) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: t, Name: name, Required: required, Choices: ch}
}

// Commands returns the slash command tree the bot registers: one command,
// /kulami, with a subcommand per action. Names are the English ones,
// which Discord sends in every interaction whatever the user's language;
// descriptions and the names and descriptions in the other languages
// (name_localizations, description_localizations) come from the message
// files (see localize).
func Commands() []*discordgo.ApplicationCommand {
	str, user, integer := discordgo.ApplicationCommandOptionString, discordgo.ApplicationCommandOptionUser, discordgo.ApplicationCommandOptionInteger
	cell := opt(str, "cell", true)
	cell.Autocomplete = true
	clock := opt(str, "move_time", false) // typed, "3d+1d", with suggestions (moveTimeAutocomplete)
	clock.Autocomplete = true
	page := opt(integer, "page", false)
	page.MinValue = ptr(1.0)
	game := func() *discordgo.ApplicationCommandOption { // one each: their descriptions differ
		g := opt(integer, "game", false)
		g.MinValue = ptr(1.0)
		return g
	}
	onOff := choices("on_off", "on", "off")
	themes := choices("theme", "dark", "light")
	marbles := choices("marbles", "standard", "colour-blind")
	seasonChannel := opt(discordgo.ApplicationCommandOptionChannel, "season_channel", false)
	seasonChannel.ChannelTypes = []discordgo.ChannelType{discordgo.ChannelTypeGuildText, discordgo.ChannelTypeGuildNews}
	puzzleChannel := opt(discordgo.ApplicationCommandOptionChannel, "puzzle_channel", false)
	puzzleChannel.ChannelTypes = seasonChannel.ChannelTypes
	layouts := choices("layout", "square", "random", "irregular")
	rules := choices("rules", "basic", "area", "lines", "full")
	weekends := choices("weekends", "pause", "play")
	timezone := opt(str, "timezone", false)
	timezone.Autocomplete = true
	vacationDays := opt(integer, "vacation_days", false)
	vacationDays.MinValue, vacationDays.MaxValue = ptr(0.0), 30
	// Installed to a server or to a user's account, usable in servers, the bot's DM and other DMs and
	// group DMs (see place).
	contexts := []discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM, discordgo.InteractionContextPrivateChannel}
	installs := []discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall, discordgo.ApplicationIntegrationUserInstall}
	cmd := &discordgo.ApplicationCommand{
		Name:             commandName,
		Type:             discordgo.ChatApplicationCommand,
		Contexts:         &contexts,
		IntegrationTypes: &installs,
		Options: []*discordgo.ApplicationCommandOption{
			sub("challenge",
				opt(user, "opponent", false), // none: an open challenge, for anyone here
				opt(str, "layout", false, layouts...),
				opt(str, "rules", false, rules...),
				opt(str, "first", false, choices("first", "me", "them", "random")...),
				clock,
				opt(str, "weekends", false, weekends...),
			),
			sub("accept"),
			sub("decline"),
			sub("move", cell),
			sub("board"),
			sub("resign"),
			sub("abort"),
			sub("draw"),
			sub("rules"),
			sub("help"),
			sub("leaderboard", page, opt(str, "ladder", false, choices("ladder", "human", "ai", "everywhere")...),
				opt(str, "season", false, choices("season", "current", "previous", "all-time")...)),
			sub("stats", opt(user, "player", false)),
			sub("history", opt(user, "player", false)),
			sub("export", game()),
			sub("notify", opt(str, "dm", false, onOff...), timezone, opt(str, "quiet_hours", false), opt(str, "theme", false, themes...), opt(str, "marbles", false, marbles...)),
			sub("settings",
				opt(str, "threads", false, onOff...),
				opt(str, "move_time", false, moveTimeChoices()...),
				opt(str, "hints", false, onOff...),
				opt(str, "language", false, languageChoices()...),
				seasonChannel,
				opt(str, "timeouts", false, choices("timeouts", "claim", "auto")...),
				opt(discordgo.ApplicationCommandOptionRole, "tournament_role", false),
				opt(str, "weekends", false, weekends...),
				vacationDays,
				opt(str, "theme", false, themes...),
				opt(str, "marbles", false, marbles...),
				opt(str, "clear", false, choices("clear", "season_channel", "puzzle_channel")...),
				puzzleChannel,
			),
			sub("play",
				opt(str, "level", false, choices("level", "easy", "medium", "hard")...),
				opt(str, "layout", false, layouts...),
				opt(str, "rules", false, rules...),
				opt(str, "first", false, choices("first_ai", "me", "them", "random")...),
			),
			sub("hint"),
			sub("games", opt(discordgo.ApplicationCommandOptionBoolean, "mine", false)),
			sub("review", game()),
			sub("give_time"),
			sub("claim"),
			sub("plan"),
			tournamentGroup(layouts, rules, onOff),
			sub("vacation", opt(str, "action", true, choices("vacation_action", "start", "end", "status")...)),
		},
	}
	localize(cmd, "command")
	puzzles := &discordgo.ApplicationCommand{
		Name:             puzzleCommandName,
		Type:             discordgo.ChatApplicationCommand,
		Contexts:         &contexts, // as /kulami: puzzles are answers only the solver sees, anywhere
		IntegrationTypes: &installs,
		Options: []*discordgo.ApplicationCommandOption{
			sub("next"),
			sub("daily"),
			sub("stats", opt(user, "player", false)),
		},
	}
	localize(puzzles, "command.puzzle")
	return []*discordgo.ApplicationCommand{cmd, puzzles}
}

// tournamentGroup is the group /kulami tournament: its subcommands and
// their options (the bounds of engine/tournament's settings).
func tournamentGroup(layouts, rules, onOff []*discordgo.ApplicationCommandOptionChoice) *discordgo.ApplicationCommandOption {
	str, integer := discordgo.ApplicationCommandOptionString, discordgo.ApplicationCommandOptionInteger
	bounded := func(name string, lo, hi float64) *discordgo.ApplicationCommandOption {
		o := opt(integer, name, false)
		o.MinValue, o.MaxValue = &lo, hi
		return o
	}
	id := func() *discordgo.ApplicationCommandOption { // one each: options are not shared
		o := opt(integer, "tournament", false)
		o.MinValue = ptr(1.0)
		return o
	}
	name := opt(str, "name", true)
	name.MaxLength = tournament.MaxNameLength
	return &discordgo.ApplicationCommandOption{
		Type: discordgo.ApplicationCommandOptionSubCommandGroup,
		Name: "tournament",
		Options: []*discordgo.ApplicationCommandOption{
			sub("create", name,
				bounded("rounds", tournament.MinRounds, tournament.MaxRounds),
				bounded("days_per_round", tournament.MinDaysPerRound, tournament.MaxDaysPerRound),
				opt(str, "layout", false, layouts...),
				opt(str, "rules", false, rules...),
				opt(str, "move_time", false, moveTimeChoices()...),
				opt(str, "duplicate", false, onOff...),
				opt(str, "start", false),
				bounded("max_players", tournament.MinPlayers, tournament.MaxPlayersLimit),
			),
			sub("join", id()),
			sub("leave", id()),
			sub("start", id()),
			sub("pairings", bounded("round", 1, tournament.MaxRounds), id()),
			sub("standings", id()),
			sub("list"),
			sub("cancel", id()),
		},
	}
}

// localize fills in the description of the command, of each subcommand and
// of each option from the English message file, and their names and
// descriptions in each other language. The messages are prefix.name and
// prefix.desc for the command ("command" for /kulami, "command.puzzle"
// for /puzzle), prefix.<sub>.name and .desc for a subcommand,
// prefix.<sub>.<option>.name and .desc for an option (see
// optionID for an option named name or desc). The English names are the
// ones the handlers know, so en.toml repeats them (the tests check it).
func localize(cmd *discordgo.ApplicationCommand, prefix string) {
	cmd.Description = i18n.English.T(prefix + ".desc")
	names, descs := localizations(prefix+".name"), localizations(prefix+".desc")
	cmd.NameLocalizations, cmd.DescriptionLocalizations = &names, &descs
	var walk func(prefix string, opts []*discordgo.ApplicationCommandOption)
	walk = func(prefix string, opts []*discordgo.ApplicationCommandOption) {
		for _, o := range opts {
			id := optionID(prefix, o.Name)
			o.Description = i18n.English.T(id + ".desc")
			o.NameLocalizations, o.DescriptionLocalizations = localizations(id+".name"), localizations(id+".desc")
			walk(id, o.Options)
		}
	}
	walk(prefix, cmd.Options)
}

// optionID returns the message id, without its .name or .desc, of the
// option (or subcommand) name of the command or subcommand whose id is
// prefix: prefix.name, but prefix.options.name for an option named name or
// desc, whose table of messages ([prefix.name] in the TOML file) would
// clash with the message of prefix itself (prefix.name = "…").
func optionID(prefix, name string) string {
	if name == "name" || name == "desc" {
		return prefix + ".options." + name
	}
	return prefix + "." + name
}

// localizations returns the message id in each language but English, for
// each of Discord's locales of that language.
func localizations(id string) map[discordgo.Locale]string {
	return localizedBy(func(l i18n.Lang) string { return l.T(id) })
}

// localizedBy returns text(l) for the Discord locales of every language l
// but English.
func localizedBy(text func(i18n.Lang) string) map[discordgo.Locale]string {
	out := map[discordgo.Locale]string{}
	for _, l := range i18n.Langs() {
		if l == i18n.English {
			continue
		}
		for _, loc := range l.DiscordLocales() {
			out[discordgo.Locale(loc)] = text(l)
		}
	}
	return out
}

func ptr[T any](v T) *T { return &v }
