package bot

import (
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/bot/i18n"
)

// rulesPages are the rules of Kulami as the bot explains them, one embed
// per page (RULES.md, in plain words).
var rulesPages = []struct{ title, text string }{
	{"The board and the goal", `Kulami is played on **17 wooden panels** with **64 holes** in all: panels of 6, 4, 3 and 2 holes, laid edge to edge. Columns are letters **A–J**, rows numbers **1–10** from the top, so **A1** is the top-left hole.

Each player has **28 marbles**, red or black. You take turns placing one marble in an empty hole.

At the end, each panel belongs to whoever has **more marbles on it** and scores its number of holes. A tie or an empty panel scores for nobody. **Most points wins.**`},
	{"Where you may play", `The first marble can go anywhere. After that, your marble must go into an empty hole that:
1. is in the **same row or column** as the marble just placed (at any distance: a row runs on across gaps and across marbles);
2. is **not on the panel** of the marble just placed;
3. is **not on the panel** of the marble before that.

Panels used earlier are open again. The board marks the holes you may play and shades the two closed panels.`},
	{"The end and the score", `The game ends when all **56 marbles** are placed, or at once when the player to move has **no legal hole**.

**Panels**: each panel scores its holes for the player with more marbles on it.
Optional bonuses, chosen with the challenge:
- **area**: the player whose largest group of marbles (joined left, right, up or down) is bigger scores the difference of the two sizes;
- **lines**: every straight line of 5 or more of your marbles in a row (across, down or diagonal) counts its length; the player with the bigger total scores the difference.

Rule sets: **basic** (panels), **area**, **lines**, **full** (all three). Equal totals are a draw.`},
	{"Playing here", `• **/kulami challenge** someone in a channel; they **Accept** with the button.
• On your turn, pick a hole from the board's menu, or type **/kulami move** (it suggests the legal holes).
• Each move has a clock (3 days unless the challenge says otherwise); the bot reminds you, and a player whose time runs out loses.
• **/kulami board** shows the board again, **/kulami resign** gives up, **/kulami help** lists every command.
• Nobody around? **/kulami play** against the computer.`},
}

// rulesMessage is page p (from 0) of the rules, with buttons to page, in
// lang.
func rulesMessage(lang i18n.Lang, p int) message {
	p = max(0, min(p, len(rulesPages)-1))
	page := rulesPages[p]
	return message{
		ephemeral: true,
		embeds: []*discordgo.MessageEmbed{{
			Title:       page.title,
			Description: page.text,
			Color:       embedColor,
			Footer:      &discordgo.MessageEmbedFooter{Text: lang.T("rules_page.footer", "Page", p+1, "Pages", len(rulesPages))},
		}},
		components: pager(lang, actRules, "", 0, p, len(rulesPages)),
	}
}

// pager is a row with Previous and Next buttons for page p of n, in lang.
func pager(lang i18n.Lang, action, channel string, id uint64, p, n int) []discordgo.MessageComponent {
	return []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: lang.T("button.previous"), Style: discordgo.SecondaryButton, Disabled: p <= 0,
			CustomID: customID{action: action, channel: channel, id: id, n: max(p-1, 0)}.String()},
		discordgo.Button{Label: lang.T("button.next"), Style: discordgo.SecondaryButton, Disabled: p >= n-1,
			CustomID: customID{action: action, channel: channel, id: id, n: p + 1}.String()},
	}}}
}

// helpMessage lists every subcommand with its options and description,
// named in lang as the registration names them for lang's Discord locales
// (name_localizations, description_localizations).
func helpMessage(lang i18n.Lang) message {
	var b strings.Builder
	locales := lang.DiscordLocales()
	for _, o := range Commands()[0].Options {
		var args []string
		for _, a := range o.Options {
			name := localized(a.Name, a.NameLocalizations, locales)
			if a.Required {
				args = append(args, name+":")
			} else {
				args = append(args, "["+name+"]")
			}
		}
		fmt.Fprintf(&b, "**/%s %s** %s\n%s\n", commandName, localized(o.Name, o.NameLocalizations, locales), strings.Join(args, " "),
			localized(o.Description, o.DescriptionLocalizations, locales))
	}
	return message{
		ephemeral: true,
		embeds: []*discordgo.MessageEmbed{{
			Title:       lang.T("help.title"),
			Description: b.String(),
			Color:       embedColor,
			Footer:      &discordgo.MessageEmbedFooter{Text: lang.T("help.footer")},
		}},
	}
}

// embedColor is the wood colour of the bot's embeds.
// localized returns the text of locales' first locale in localizations,
// else def.
func localized(def string, localizations map[discordgo.Locale]string, locales []string) string {
	for _, l := range locales {
		if s, ok := localizations[discordgo.Locale(l)]; ok && s != "" {
			return s
		}
	}
	return def
}

const embedColor = 0xC8954D
