package bot

import (
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/storage"
)

// notifyCommand turns reminders by direct message on or off.
func (b *Bot) notifyCommand(c *interaction, o options) error {
	on := o.str("dm") == "on"
	if _, err := b.store.UpdateUserSettings(c.user().ID, func(u *storage.UserSettings) error {
		u.DMReminders = on
		return nil
	}); err != nil {
		return err
	}
	if on {
		return c.say("I'll also remind you by direct message when your move is due. (Discord only delivers it if you allow direct messages from members of this server.)")
	}
	return c.say("No more reminders by direct message; you'll still be pinged in the game's channel.")
}

// settingsCommand shows or changes the server's settings; changing them
// needs Manage Server.
func (b *Bot) settingsCommand(c *interaction, o options) error {
	if len(o) > 0 {
		if m := c.i.Member; m == nil || m.Permissions&(discordgo.PermissionManageGuild|discordgo.PermissionAdministrator) == 0 {
			return refuse("Changing the server's Kulami settings needs the **Manage Server** permission.")
		}
	}
	s, err := b.store.UpdateGuildSettings(c.i.GuildID, func(s *storage.GuildSettings) error {
		if v := o.str("threads"); v != "" {
			s.Threads = v == "on"
		}
		if v := o.str("hints"); v != "" {
			s.Hints = v == "on"
		}
		if v := o.str("move_time"); v != "" {
			d, err := parseMoveTime(v)
			if err != nil {
				return refuse("Pick a move time from the list.")
			}
			s.MoveTime = d
		}
		return nil
	})
	if err != nil {
		return err
	}
	onOff := map[bool]string{true: "on", false: "off"}
	var lines []string
	if len(o) > 0 {
		lines = append(lines, "Settings saved.")
	}
	lines = append(lines,
		fmt.Sprintf("**Threads**: %s — each accepted challenge gets a thread of its own.", onOff[s.Threads]),
		fmt.Sprintf("**Move time**: %s per move for new challenges (unless the challenge picks one).", moveTimeName(cmp(s.MoveTime, b.opt.MoveTime))),
		fmt.Sprintf("**Hints**: %s — **/kulami hint** shows the computer's suggestion.", onOff[s.Hints]),
	)
	return c.say(strings.Join(lines, "\n"))
}
