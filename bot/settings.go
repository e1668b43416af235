package bot

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/draw"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/engine/rating"
	"github.com/kulami/kulami/storage"
)

// preferences handles what users and servers choose: /kulami notify and
// /kulami settings. It is safe for concurrent use.
type preferences struct {
	store    SettingsStore
	players  PlayerGamesStore // a player's games, told where they live
	log      *slog.Logger
	langs    *locales
	moveTime time.Duration // the default the settings show
	clock    Clock         // what season a season channel starts with
	out      *outbound     // posts in a season channel chosen, to check it
	puzzles  *puzzles      // told of a puzzle channel chosen
	// roleLinks: Linked Roles are on, and the settings say how to make a
	// role of them.
	roleLinks bool
}

// notifyCommand sets how and when the caller is reminded: by direct
// message or not, their time zone and their quiet hours. Every option is
// checked before anything is stored; without options it shows them.
func (pf *preferences) notifyCommand(c *interaction, o options) error {
	lang := c.lang()
	dm, zoneName, quietText := o.str("dm"), o.str("timezone"), o.str("quiet_hours")
	var zone *time.Location
	if zoneName != "" {
		var near []string
		if zone, near = parseZone(zoneName); zone == nil {
			return refuse("notify.unknown_zone", "Zone", escape(zoneName), "Suggestions", "`"+strings.Join(near, "`, `")+"`")
		}
	}
	quiet, err := parseQuietOption(quietText)
	if err != nil {
		return err
	}
	theme, marbles := o.str("theme"), o.str("marbles")
	if err := checkLook(theme, marbles); err != nil {
		return err
	}
	u, err := pf.store.UpdateUserSettings(c.ctx, c.user().ID, func(u *storage.UserSettings) error {
		if theme != "" {
			u.Theme = theme
		}
		if marbles != "" {
			u.Marbles = marbles
		}
		if dm != "" {
			u.DMReminders = dm == "on"
		}
		if zone != nil {
			u.TimeZone = zone.String()
			if u.TimeZone == "UTC" {
				u.TimeZone = ""
			}
		}
		if quietText != "" {
			u.Quiet = quiet
		}
		return nil
	})
	if err != nil {
		return err
	}
	if zone != nil || quietText != "" {
		pf.relocate(c, u)
	}
	var lines []string
	switch dm {
	case "on":
		lines = append(lines, lang.T("settings.dm_on"))
	case "off":
		lines = append(lines, lang.T("settings.dm_off"))
	}
	if u.TimeZone == "" {
		lines = append(lines, lang.T("notify.zone_utc"))
	} else {
		lines = append(lines, lang.T("notify.zone", "Zone", u.TimeZone))
	}
	if u.Quiet == (game.Quiet{}) {
		lines = append(lines, lang.T("notify.quiet_none"))
	} else {
		lines = append(lines, lang.T("notify.quiet", "Quiet", u.Quiet.String()))
	}
	if u.Theme == "" {
		lines = append(lines, lang.T("notify.theme_server"))
	} else {
		lines = append(lines, lang.T("notify.theme", "Theme", lang.T("command.choices.theme."+u.Theme)))
	}
	if u.Marbles == "" {
		lines = append(lines, lang.T("notify.marbles_server"))
	} else {
		lines = append(lines, lang.T("notify.marbles", "Marbles", lang.T("command.choices.marbles."+u.Marbles)))
	}
	return c.say(strings.Join(lines, "\n"))
}

// checkLook refuses a theme option other than "" (unchanged), dark or
// light, and a marbles option other than "", standard or colour-blind:
// Discord offers only those, so another is a forged request.
func checkLook(theme, marbles string) error {
	if err := checkChoice(theme, draw.ParseTheme, "settings.pick_theme"); err != nil {
		return err
	}
	return checkChoice(marbles, draw.ParseMarbles, "settings.pick_marbles")
}

// checkChoice refuses s, unless it is "" or a name parse reads as Discord
// sends it (in lower case), with the message key.
func checkChoice[T any](s string, parse func(string) (T, error), key string) error {
	if s == "" {
		return nil
	}
	if _, err := parse(s); err != nil || s != strings.ToLower(s) {
		return refuse(key)
	}
	return nil
}

// relocate tells every game of the caller where they now live (u), for
// the next deadline set in each (game.Game.SetLocal). Their settings are
// stored already: a failure is logged, and the games they start from now
// on count with the new settings all the same.
func (pf *preferences) relocate(c *interaction, u storage.UserSettings) {
	me, zone := c.user().ID, zoneOf(u)
	_, err := pf.players.UpdatePlayerGames(c.ctx, me, func(games []*storage.Game) error {
		for _, g := range games {
			if err := g.SetLocal(seat(g, me), zone, u.Quiet); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		pf.log.Warn("cannot tell a player's games where they live", "user", me, "err", err)
	}
}

// quietErrors are the refusals of quiet hours that game.ParseQuiet
// refuses.
var quietErrors = sentinelWords{
	{game.ErrQuietForm, "notify.quiet_form"},
	{game.ErrQuietHour, "notify.quiet_hour"},
	{game.ErrQuietLength, "notify.quiet_length"},
}

// parseQuietOption reads the quiet_hours option: "" (unchanged: none is
// returned), "off" for none, else quiet hours as game.ParseQuiet reads
// them ("22-08", spaces around ignored); a refusal that says why not.
func parseQuietOption(s string) (game.Quiet, error) {
	s = strings.TrimSpace(s)
	if s == "" || strings.EqualFold(s, "off") {
		return game.Quiet{}, nil
	}
	q, err := game.ParseQuiet(s)
	if err != nil {
		return game.Quiet{}, quietErrors.refusal(err, "Quiet", escape(s))
	}
	return q, nil
}

// where says where each player of a new game lives (their settings), for
// newGame; UTC and no quiet hours for the computer, for
// a user whose settings cannot be read and for a stored zone that no
// longer loads.
func where(ctx context.Context, store SettingsStore) func(game.Player) (*time.Location, game.Quiet) {
	return func(p game.Player) (*time.Location, game.Quiet) {
		if p.IsAI() {
			return nil, game.Quiet{}
		}
		u, err := store.UserSettings(ctx, p.UserID)
		if err != nil {
			return nil, game.Quiet{}
		}
		return zoneOf(u), u.Quiet
	}
}

// settingsCommand shows or changes the server's settings; changing them
// needs Manage Server.
func (pf *preferences) settingsCommand(c *interaction, o options) error {
	if c.guild() == everywhere {
		return c.say(c.lang().T("anywhere.settings"))
	}
	if len(o) > 0 {
		if m := c.i.Member; m == nil || m.Permissions&(discordgo.PermissionManageGuild|discordgo.PermissionAdministrator) == 0 {
			return refuse("settings.needs_manage_server")
		}
	}
	theme, marbles := o.str("theme"), o.str("marbles")
	if err := checkLook(theme, marbles); err != nil {
		return err
	}
	seasonChannel, clearing := o.str("season_channel"), o.str("clear")
	switch {
	case clearing != "" && clearing != "season_channel" && clearing != "puzzle_channel": // Discord offers only those: a forged request
		return refuse("season.pick_clear")
	case clearing == "season_channel" && seasonChannel != "":
		return refuse("season.clear_or_pick")
	case clearing == "puzzle_channel" && o.str("puzzle_channel") != "":
		return refuse("puzzle.clear_or_pick")
	}
	if seasonChannel != "" {
		if err := pf.seasonChannel(c, seasonChannel); err != nil {
			return err
		}
	}
	puzzleChannel := o.str("puzzle_channel")
	if puzzleChannel != "" {
		if err := pf.puzzleChannel(c, puzzleChannel); err != nil {
			return err
		}
	}
	s, err := pf.store.UpdateGuildSettings(c.ctx, c.i.GuildID, func(s *storage.GuildSettings) error {
		if clearing == "puzzle_channel" {
			s.PuzzleChannel = "" // no daily puzzle is posted
		}
		if puzzleChannel != "" {
			s.PuzzleChannel = puzzleChannel
		}
		if seasonChannel != "" {
			// The season under way is the first posted there.
			s.SeasonChannel, s.SeasonPosted = seasonChannel, max(s.SeasonPosted, rating.SeasonOf(pf.clock.Now())-1)
		}
		if clearing == "season_channel" {
			s.SeasonChannel = "" // no season's top three is posted
		}
		if v := o.str("threads"); v != "" {
			s.Threads = v == "on"
		}
		if theme != "" {
			s.Theme = theme
		}
		if marbles != "" {
			s.Marbles = marbles
		}
		if v := o.str("hints"); v != "" {
			s.Hints = v == "on"
		}
		if v := o.str("move_time"); v != "" {
			d, err := parseMoveTime(v)
			if err != nil {
				return refuse("settings.pick_move_time")
			}
			s.MoveTime = d
		}
		if v := o.str("weekends"); v != "" {
			s.Weekends = v == "pause"
		}
		if n := o.int("vacation_days", -1); n >= 0 {
			if n > int(game.VacationCap/(24*time.Hour)) {
				return refuse("settings.pick_vacation_days")
			}
			s.VacationDays = &n
		}
		switch o.str("timeouts") {
		case "":
		case "claim", "auto":
			s.AutoTimeouts = o.str("timeouts") == "auto"
		default:
			return refuse("settings.timeouts.pick")
		}
		if v := o.str("tournament_role"); v != "" {
			s.TournamentRole = v
		}
		if v := o.str("language"); v != "" {
			l, ok := i18n.Parse(v)
			if !ok || string(l) != v {
				return refuse("settings.pick_language")
			}
			s.Language = v
		}
		return nil
	})
	if err != nil {
		return err
	}
	lang := c.lang()
	onOff := map[bool]string{true: lang.T("settings.on"), false: lang.T("settings.off")}
	var lines []string
	if len(o) > 0 {
		lines = append(lines, lang.T("settings.saved"))
	}
	language := lang.T("settings.language_auto", "Language", pf.langs.publicLang(c).Name())
	if l, ok := i18n.Parse(s.Language); ok {
		language = l.Name()
	}
	lines = append(lines,
		lang.T("settings.threads", "State", onOff[s.Threads]),
		lang.T("settings.move_time", "MoveTime", lang.Duration(cmp(s.MoveTime, pf.moveTime))),
		lang.T("settings.hints", "State", onOff[s.Hints]),
		lang.T("settings.language", "Language", language),
		lang.T("settings.timeouts."+s.Timeouts().String()),
		lang.T("settings.weekends", "State", weekendNames(lang, s.Weekends)),
		lang.T("settings.theme", "Theme", lang.T("command.choices.theme."+cmpStr(s.Theme, "dark"))),
		lang.T("settings.marbles", "Marbles", lang.T("command.choices.marbles."+cmpStr(s.Marbles, "standard"))),
	)
	if limit := vacationCap(s); limit > 0 {
		lines = append(lines, lang.T("settings.vacation_days", "Cap", lang.Duration(limit)))
	} else {
		lines = append(lines, lang.T("settings.vacation_off"))
	}
	if s.SeasonChannel != "" {
		lines = append(lines, lang.T("season.setting", "Channel", fmt.Sprintf("<#%s>", s.SeasonChannel)))
	} else {
		lines = append(lines, lang.T("season.setting_none"))
	}
	if s.TournamentRole != "" {
		lines = append(lines, lang.T("settings.tournament_role", "Role", "<@&"+s.TournamentRole+">"))
	}
	if s.PuzzleChannel != "" {
		lines = append(lines, lang.T("puzzle.setting", "Channel", fmt.Sprintf("<#%s>", s.PuzzleChannel)))
	} else {
		lines = append(lines, lang.T("puzzle.setting_none"))
	}
	if pf.roleLinks {
		lines = append(lines, lang.T("linked_roles.setting", "URL", roleLinksHelp))
	}
	if puzzleChannel != "" {
		pf.puzzles.forgetDay() // today's puzzle goes out there now
	}
	return c.say(strings.Join(lines, "\n"))
}

// weekendNames names the weekend choice of a game or a server in lang.
func weekendNames(lang i18n.Lang, pause bool) string {
	if pause {
		return lang.T("command.choices.weekends.pause")
	}
	return lang.T("command.choices.weekends.play")
}

// zoneOf returns the time zone of a user of settings u: nil (UTC) for
// none, or for a name no longer known.
func zoneOf(u storage.UserSettings) *time.Location {
	if u.TimeZone == "" {
		return nil
	}
	z, _ := parseZone(u.TimeZone)
	return z
}
