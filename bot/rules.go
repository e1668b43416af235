package bot

import (
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/bot/i18n"
)

// rulesPages are the rules of Kulami as the bot explains them, one embed
// per page: the messages rules.<page>.title and rules.<page>.text, which
// say what RULES.md says in plain words, in each edition's own terms.
var rulesPages = []string{"board", "moves", "score", "here", "overtime"}

// rulesMessage is page p (from 0) of the rules, with buttons to page, in
// lang.
func rulesMessage(lang i18n.Lang, p int) message {
	p = max(0, min(p, len(rulesPages)-1))
	id := "rules." + rulesPages[p]
	return message{
		ephemeral: true,
		embeds: []*discordgo.MessageEmbed{{
			Title:       lang.T(id + ".title"),
			Description: lang.T(id+".text", "Accept", lang.T("button.accept")),
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
	var list func(prefix string, opts []*discordgo.ApplicationCommandOption)
	list = func(prefix string, opts []*discordgo.ApplicationCommandOption) {
		for _, o := range opts {
			name := prefix + " " + localized(o.Name, o.NameLocalizations, locales)
			if o.Type == discordgo.ApplicationCommandOptionSubCommandGroup {
				list(name, o.Options) // a group lists its subcommands
				continue
			}
			var args []string
			for _, a := range o.Options {
				name := localized(a.Name, a.NameLocalizations, locales)
				if a.Required {
					args = append(args, name+":")
				} else {
					args = append(args, "["+name+"]")
				}
			}
			fmt.Fprintf(&b, "**%s** %s\n%s\n", name, strings.Join(args, " "), localized(o.Description, o.DescriptionLocalizations, locales))
		}
	}
	cmds := Commands()
	list("/"+commandName, cmds[0].Options)
	list("/"+localized(cmds[1].Name, *cmds[1].NameLocalizations, locales), cmds[1].Options)
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

// embedColor is the wood colour of the bot's embeds.
const embedColor = 0xC8954D
