package bot_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/bot/i18n"
)

// rulesPageIDs are the messages of /kulami rules, page by page.
var rulesPageIDs = []string{"rules.board", "rules.moves", "rules.score", "rules.here", "rules.overtime"}

// numbers returns the numbers a text writes with digits, sorted: the
// figures of the rules (17 panels, 64 holes, 28 marbles, 5 in a line…).
func numbers(s string) []string {
	n := regexp.MustCompile(`[0-9]+`).FindAllString(s, -1)
	slices.Sort(n)
	return n
}

// TestRulesPages: every language's rules have each page, with the
// figures of the English ones (which say what RULES.md says), name the
// four rule sets as the bot names them in that language, and use the
// words of that language's edition of the game.
func TestRulesPages(t *testing.T) {
	vocabulary := map[i18n.Lang][]string{
		i18n.English: {"panel", "marble", "hole"},
		i18n.French:  {"plaque", "bille", "case"},
		i18n.Spanish: {"baldosa", "canica", "hueco"},
		i18n.German:  {"Plättchen", "Kugel", "Mulde"},
	}
	require.ElementsMatch(t, i18n.Langs(), slices.Collect(func(yield func(i18n.Lang) bool) {
		for l := range vocabulary {
			yield(l)
		}
	}), "a vocabulary for each language")
	for _, l := range i18n.Langs() {
		t.Run(string(l), func(t *testing.T) {
			var all strings.Builder
			for _, id := range rulesPageIDs {
				for _, part := range []string{".title", ".text"} {
					require.True(t, i18n.Has(id+part), "en.toml has %s%s", id, part)
				}
				text := l.T(id+".text", "Accept", l.T("button.accept"))
				if l != i18n.English {
					assert.NotEqual(t, i18n.English.T(id+".title"), l.T(id+".title"), "%s is translated", id)
				}
				assert.Equal(t, numbers(i18n.English.T(id+".text")), numbers(text), "%s: the same figures as in English", id)
				assert.NotContains(t, text, "{{")
				all.WriteString(text)
			}
			score := l.T("rules.score.text")
			for _, r := range []string{"basic", "area", "lines", "full"} {
				assert.Contains(t, score, "**"+l.T("rules."+r)+"**", "the rule set %s under its name", r)
			}
			assert.Contains(t, l.T("rules.here.text", "Accept", l.T("button.accept")), "**"+l.T("button.accept")+"**", "the button as it is labelled")
			days := l.T("rules.overtime.text")
			first := regexp.MustCompile(`\*\*([^*]+)\*\*`).FindStringSubmatch(days) // the first comfort: vacations
			require.Len(t, first, 2)
			assert.Contains(t, strings.ToLower(l.T("help.footer")), strings.ToLower(first[1]), "help points to the page of days")
			for what, name := range map[string]string{
				"vacation": "/kulami " + l.T("command.vacation.name"), "weekends": l.T("command.challenge.weekends.name") + ":",
				"time zone": l.T("command.notify.timezone.name") + ":", "quiet hours": l.T("command.notify.quiet_hours.name") + ":",
				"give time": "/kulami " + l.T("command.give_time.name"), "claim": "/kulami " + l.T("command.claim.name"),
				"plan": "/kulami " + l.T("command.plan.name"), "increment": l.T("command.challenge.move_time.name") + ":3d+1d",
			} {
				assert.Contains(t, days, name, "the page of days explains %s", what)
			}
			for _, w := range vocabulary[l] {
				assert.Contains(t, all.String(), w, "the edition's word")
			}
		})
	}
}

// TestRulesInTheReadersLanguage: /kulami rules answers each reader, in a
// server of any language, in their own language, only to them, and the
// pages turn in it.
func TestRulesInTheReadersLanguage(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "gateway")
	for _, tc := range []struct {
		locale discordgo.Locale
		lang   i18n.Lang
	}{
		{discordgo.French, i18n.French},
		{discordgo.SpanishLATAM, i18n.Spanish},
		{discordgo.German, i18n.German},
		{discordgo.EnglishGB, i18n.English},
	} {
		t.Run(string(tc.locale), func(t *testing.T) {
			i := h.commandWith(speaking(tc.locale, discordgo.Japanese), h.channel.ID, h.alice, "rules")
			r := h.dc.WaitResponse(t, i.ID)
			assert.True(t, r.Ephemeral(), "only the reader sees it")
			require.Len(t, r.Embeds, 1)
			assert.Equal(t, tc.lang.T("rules.board.title"), r.Embeds[0].Title)
			assert.Equal(t, tc.lang.T("rules_page.footer", "Page", 1, "Pages", len(rulesPageIDs)), r.Embeds[0].Footer.Text)

			msg := h.dc.WaitOriginal(t, i.ID, func(*discordtest.Message) bool { return true })
			next := buttons(msg.Components)[tc.lang.T("button.next")]
			require.NotEmpty(t, next, "a Next button labelled in the reader's language")
			click := h.dc.Button(msg.ID, h.alice, next)
			click.Locale = tc.locale
			h.send(click)
			h.dc.WaitUntil(t, "the second page", func() bool {
				m, _ := h.dc.Message(msg.ID)
				return len(m.Embeds) == 1 && m.Embeds[0].Title == tc.lang.T("rules.moves.title")
			})
		})
	}
}
