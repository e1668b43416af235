package bot

import (
	"fmt"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// commandName is the one slash command; everything else is a subcommand.
const commandName = "kulami"

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

// moveTimeName returns how a move clock reads to people ("3 days").
func moveTimeName(d time.Duration) string {
	for _, m := range moveTimes {
		if m.d == d {
			return m.name
		}
	}
	return duration(d)
}

// duration says d in words, in its two largest units, to the minute: "10
// hours", "2 days 3 hours", "45 minutes", "less than a minute".
func duration(d time.Duration) string {
	units := []struct {
		d         time.Duration
		one, many string
	}{{24 * time.Hour, "day", "days"}, {time.Hour, "hour", "hours"}, {time.Minute, "minute", "minutes"}}
	var parts []string
	for _, u := range units {
		if n := int(d / u.d); n > 0 && len(parts) < 2 {
			name := u.many
			if n == 1 {
				name = u.one
			}
			parts = append(parts, fmt.Sprintf("%d %s", n, name))
			d -= time.Duration(n) * u.d
		} else if len(parts) > 0 {
			break // two adjacent units at most: "2 days 5 minutes" says too much
		}
	}
	if len(parts) == 0 {
		return "less than a minute"
	}
	return strings.Join(parts, " ")
}

func choices(pairs ...string) []*discordgo.ApplicationCommandOptionChoice {
	var out []*discordgo.ApplicationCommandOptionChoice
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: pairs[i], Value: pairs[i+1]})
	}
	return out
}

func moveTimeChoices() []*discordgo.ApplicationCommandOptionChoice {
	var out []*discordgo.ApplicationCommandOptionChoice
	for _, m := range moveTimes {
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: m.name, Value: m.value})
	}
	return out
}

func sub(name, description string, options ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
	if options == nil {
		options = []*discordgo.ApplicationCommandOption{}
	}
	return &discordgo.ApplicationCommandOption{
		Type:        discordgo.ApplicationCommandOptionSubCommand,
		Name:        name,
		Description: description,
		Options:     options,
	}
}

func opt(t discordgo.ApplicationCommandOptionType, name, description string, required bool, ch ...*discordgo.ApplicationCommandOptionChoice) *discordgo.ApplicationCommandOption {
	return &discordgo.ApplicationCommandOption{Type: t, Name: name, Description: description, Required: required, Choices: ch}
}

// Commands returns the slash command tree the bot registers: one command,
// /kulami, with a subcommand per action.
func Commands() []*discordgo.ApplicationCommand {
	str, user, integer := discordgo.ApplicationCommandOptionString, discordgo.ApplicationCommandOptionUser, discordgo.ApplicationCommandOptionInteger
	cell := opt(str, "cell", "The hole to play, like D4", true)
	cell.Autocomplete = true
	page := opt(integer, "page", "Page number (default 1)", false)
	page.MinValue = ptr(1.0)
	game := opt(integer, "game", "Game number, from /kulami history (default: this channel's game)", false)
	game.MinValue = ptr(1.0)
	finished := opt(integer, "game", "Game number, from /kulami history (default: this channel's last finished game)", false)
	finished.MinValue = ptr(1.0)
	onOff := choices("on", "on", "off", "off")
	return []*discordgo.ApplicationCommand{{
		Name:             commandName,
		Description:      "Play Kulami, the marble and panel board game",
		Type:             discordgo.ChatApplicationCommand,
		Contexts:         &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild},
		IntegrationTypes: &[]discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall},
		Options: []*discordgo.ApplicationCommandOption{
			sub("challenge", "Challenge someone to a game in this channel",
				opt(user, "opponent", "Who you want to play (pick me to play the computer)", true),
				opt(str, "layout", "The board: the classic square (default), a random square, or an irregular shape", false,
					choices("square (classic)", "square", "random square", "random", "irregular", "irregular")...),
				opt(str, "rules", "Scoring: panels only (basic, default), + area, + lines, or all (full)", false,
					choices("basic: panels", "basic", "area: panels + largest group", "area", "lines: panels + lines of 5", "lines", "full: panels + area + lines", "full")...),
				opt(str, "first", "Who places the first marble (default random)", false,
					choices("me", "me", "them", "them", "random", "random")...),
				opt(str, "move_time", "Time for each move before it is lost on time (default 3 days)", false, moveTimeChoices()...),
			),
			sub("accept", "Accept the challenge waiting for you in this channel"),
			sub("decline", "Decline the challenge waiting for you in this channel"),
			sub("move", "Place a marble", cell),
			sub("board", "Show the current board again"),
			sub("resign", "Resign the game in this channel"),
			sub("abort", "Call off the game before each player has made two moves (no result)"),
			sub("draw", "Offer your opponent a draw"),
			sub("rules", "The rules of Kulami in a few screens"),
			sub("help", "What each command does"),
			sub("leaderboard", "The best players of this server", page,
				opt(str, "ladder", "Games between people (default), or against the computer", false,
					choices("people", "human", "against the computer", "ai")...)),
			sub("stats", "Rating, record and streak of a player", opt(user, "player", "Whose stats (default: yours)", false)),
			sub("history", "Recent finished games of a player", opt(user, "player", "Whose games (default: yours)", false)),
			sub("export", "The game record as a .kgn file", game),
			sub("notify", "Get reminders by direct message when it is your move",
				opt(str, "dm", "Reminders by DM", true, onOff...)),
			sub("settings", "Server settings (needs Manage Server)",
				opt(str, "threads", "Play each new game in its own thread", false, onOff...),
				opt(str, "move_time", "Default time per move for new challenges", false, moveTimeChoices()...),
				opt(str, "hints", "Allow /kulami hint (the computer's suggestion)", false, onOff...),
			),
			sub("play", "Play against the computer",
				opt(str, "level", "How strong the computer plays (default medium)", false,
					choices("easy", "easy", "medium", "medium", "hard", "hard")...),
				opt(str, "layout", "The board (default square)", false,
					choices("square (classic)", "square", "random square", "random", "irregular", "irregular")...),
				opt(str, "rules", "Scoring (default basic)", false,
					choices("basic", "basic", "area", "area", "lines", "lines", "full", "full")...),
				opt(str, "first", "Who places the first marble (default random)", false,
					choices("me", "me", "the computer", "them", "random", "random")...),
			),
			sub("hint", "The computer's suggestion for your move (if this server allows it)"),
			sub("games", "The games going on in this server, to watch"),
			sub("review", "The computer's review of a finished game: win chances, mistakes, move by move", finished),
		},
	}}
}

func ptr[T any](v T) *T { return &v }
