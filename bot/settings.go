package bot

import (
	"fmt"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/engine/rating"
	"github.com/kulami/kulami/storage"
)

// preferences handles what users and servers choose: /kulami notify and
// /kulami settings. It is safe for concurrent use.
type preferences struct {
	store    SettingsStore
	langs    *locales
	moveTime time.Duration // the default the settings show
	clock    Clock         // what season a season channel starts with
	out      *outbound     // posts in a season channel chosen, to check it
}

// notifyCommand turns reminders by direct message on or off.
func (pf *preferences) notifyCommand(c *interaction, o options) error {
	on := o.str("dm") == "on"
	if _, err := pf.store.UpdateUserSettings(c.ctx, c.user().ID, func(u *storage.UserSettings) error {
		u.DMReminders = on
		return nil
	}); err != nil {
		return err
	}
	if on {
		return c.say(c.lang().T("settings.dm_on"))
	}
	return c.say(c.lang().T("settings.dm_off"))
}

// settingsCommand shows or changes the server's settings; changing them
// needs Manage Server.
func (pf *preferences) settingsCommand(c *interaction, o options) error {
	if len(o) > 0 {
		if m := c.i.Member; m == nil || m.Permissions&(discordgo.PermissionManageGuild|discordgo.PermissionAdministrator) == 0 {
			return refuse("settings.needs_manage_server")
		}
	}
	seasonChannel := o.str("season_channel")
	if seasonChannel != "" {
		if err := pf.seasonChannel(c, seasonChannel); err != nil {
			return err
		}
	}
	s, err := pf.store.UpdateGuildSettings(c.ctx, c.i.GuildID, func(s *storage.GuildSettings) error {
		if seasonChannel != "" {
			// The season under way is the first posted there.
			s.SeasonChannel, s.SeasonPosted = seasonChannel, max(s.SeasonPosted, rating.SeasonOf(pf.clock.Now())-1)
		}
		if v := o.str("threads"); v != "" {
			s.Threads = v == "on"
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
		switch o.str("timeouts") {
		case "":
		case "claim", "auto":
			s.AutoTimeouts = o.str("timeouts") == "auto"
		default:
			return refuse("settings.timeouts.pick")
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
		lang.T("settings.move_time", "MoveTime", duration(lang, cmp(s.MoveTime, pf.moveTime))),
		lang.T("settings.hints", "State", onOff[s.Hints]),
		lang.T("settings.language", "Language", language),
		lang.T("settings.timeouts."+s.Timeouts().String()),
	)
	if s.SeasonChannel != "" {
		lines = append(lines, lang.T("season.setting", "Channel", fmt.Sprintf("<#%s>", s.SeasonChannel)))
	} else {
		lines = append(lines, lang.T("season.setting_none"))
	}
	return c.say(strings.Join(lines, "\n"))
}
