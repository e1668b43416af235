package bot_test

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/storage"
)

// speaking sets an interaction's locales: its user's Discord language and
// the server's.
func speaking(user, guild discordgo.Locale) func(*discordgo.Interaction) {
	return func(i *discordgo.Interaction) {
		i.Locale = user
		i.GuildLocale = &guild
	}
}

// sendWith sends a built interaction after change and waits for its answer.
func (h *harness) sendWith(change func(*discordgo.Interaction), i *discordgo.Interaction) *discordgo.Interaction {
	h.t.Helper()
	change(i)
	h.send(i)
	h.dc.WaitResponse(h.t, i.ID)
	return i
}

// texts are the sentences people read in one test, public or ephemeral.
type texts struct{ public, private []string }

// messageTexts returns every text of a message a person reads: content,
// embeds, buttons, menus and their options, and the alt text of files.
func messageTexts(content string, embeds []*discordgo.MessageEmbed, comps []discordgo.MessageComponent, files []discordtest.File) []string {
	out := []string{content}
	for _, e := range embeds {
		out = append(out, e.Title, e.Description)
		if e.Footer != nil {
			out = append(out, e.Footer.Text)
		}
		for _, f := range e.Fields {
			out = append(out, f.Name, f.Value)
		}
	}
	for _, row := range comps {
		r, ok := row.(*discordgo.ActionsRow)
		if !ok {
			continue
		}
		for _, c := range r.Components {
			switch c := c.(type) {
			case *discordgo.Button:
				out = append(out, c.Label)
			case *discordgo.SelectMenu:
				out = append(out, c.Placeholder)
				for _, o := range c.Options {
					out = append(out, o.Description)
				}
			}
		}
	}
	for _, f := range files {
		out = append(out, f.Description)
	}
	return out
}

// seen collects what the bot said in the channels and in answer to the
// interactions.
func (h *harness) seen(channels []string, interactions []*discordgo.Interaction) texts {
	var t texts
	add := func(ephemeral bool, s []string) {
		if ephemeral {
			t.private = append(t.private, s...)
		} else {
			t.public = append(t.public, s...)
		}
	}
	for _, ch := range channels {
		for _, m := range h.dc.Messages(ch) {
			add(m.Ephemeral(), messageTexts(m.Content, m.Embeds, m.Components, m.Files))
		}
	}
	for _, i := range interactions {
		if r, ok := h.dc.Response(i.ID); ok {
			add(r.Ephemeral(), messageTexts(r.Content, r.Embeds, r.Components, r.Files))
		}
	}
	return t
}

// placeholderOrMarkup splits a message into the words a translator wrote.
var placeholderOrMarkup = regexp.MustCompile(`{{[^}]*}}|\*\*|\n|[()“”«»„:;—·]`)

// englishPhrases returns the phrases of the English messages (three words
// or more, placeholders, commands and markup cut out): finding one in a
// text means the text is English.
func englishPhrases(t *testing.T) []string {
	t.Helper()
	var doc map[string]any
	buf, err := os.ReadFile("i18n/locales/en.toml")
	require.NoError(t, err)
	require.NoError(t, toml.Unmarshal(buf, &doc))
	var phrases []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			for _, p := range placeholderOrMarkup.Split(v, -1) {
				p = strings.Trim(p, " .,!?")
				if strings.Count(p, " ") >= 2 && !strings.Contains(p, "/kulami") && !strings.Contains(p, "`") {
					phrases = append(phrases, p)
				}
			}
		case map[string]any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(doc)
	require.NotEmpty(t, phrases)
	return phrases
}

// english returns the English phrases in texts.
func english(phrases, texts []string) []string {
	var found []string
	for _, s := range texts {
		for _, p := range phrases {
			if strings.Contains(s, p) {
				found = append(found, p+" (in "+s+")")
			}
		}
	}
	return found
}

// buttonFor returns the custom ID of m's button whose custom ID has the
// action part action (":draw-no:"), whatever its label's language.
func buttonFor(t *testing.T, m *discordtest.Message, action string) string {
	t.Helper()
	for _, id := range buttons(m.Components) {
		if strings.Contains(id, action) {
			return id
		}
	}
	require.Failf(t, "no such button", "%s has no %s button", m.ID, action)
	return ""
}

// playOut plays the game of channel to its end with the legal holes the
// position offers, red and black speaking through change: every third move
// is picked from the board's menu, the others typed.
func (h *harness) playOut(channel string, change func(*discordgo.Interaction)) []*discordgo.Interaction {
	h.t.Helper()
	var sent []*discordgo.Interaction
	for {
		g, err := h.store.Game(h.t.Context(), channel)
		require.NoError(h.t, err)
		if g.Over() {
			return sent
		}
		board := h.boardAt(channel, g.Ply())
		p := g.Position()
		cell := p.Legal().Cells(p.Layout())[0].String()
		user, _ := h.players(g)
		var i *discordgo.Interaction
		if g.Ply()%3 == 2 {
			for id, values := range menus(board) {
				for _, v := range values {
					if v == cell {
						i = h.dc.Select(board.ID, user, id, cell)
					}
				}
			}
			require.NotNil(h.t, i, "the menus offer %s", cell)
		} else {
			i = h.dc.Command(channel, user, "kulami", discordtest.Subcommand("move", discordtest.StringOption("cell", cell)))
		}
		sent = append(sent, h.sendWith(change, i))
		if _, err := h.store.Game(h.t.Context(), channel); err != nil {
			return sent // the move ended the game, which left the channel
		}
		h.waitBoard(channel, "the board after "+cell, func(m *discordtest.Message) bool {
			return strings.Contains(m.Content, "**"+cell+"**")
		})
	}
}

// TestLanguages plays a whole game in French, Spanish and German through
// the fake Discord: what only a player sees is in their Discord language,
// what the channel sees in the server's, and nobody reads an English
// sentence where their language is not English.
func TestLanguages(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		// user is the players' Discord language, guild the server's;
		// setting, if not empty, the language chosen with /kulami settings.
		user, guild discordgo.Locale
		setting     string
		public      string // the public messages' language file
		// private and board are words of a refusal to a spectator and of
		// the board's text, in the language each must be in.
		private, board, over string
	}{
		{"French players on an English server", discordgo.French, discordgo.EnglishUS, "", "en",
			"vous pouvez la suivre, mais pas y jouer", "Score so far", "**Game over.**"},
		{"Spanish players on a Spanish server", discordgo.SpanishLATAM, discordgo.SpanishES, "", "es",
			"puedes mirar, pero no jugar", "Puntuación", "**Fin de la partida.**"},
		{"German players on a server set to German", discordgo.German, discordgo.EnglishGB, "de", "de",
			"du kannst zuschauen, aber nicht mitspielen", "Stand:", "**Partie beendet.**"},
		{"French players on a French server", discordgo.French, discordgo.French, "", "fr",
			"vous pouvez la suivre, mais pas y jouer", "Score actuel", "**Partie terminée.**"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, "gateway")
			ch := h.channel.ID
			as := speaking(tc.user, tc.guild)
			var sent []*discordgo.Interaction
			if tc.setting != "" {
				sent = append(sent, h.commandWith(func(i *discordgo.Interaction) { as(i); asAdmin(i) }, ch, h.alice, "settings",
					discordtest.StringOption("language", tc.setting)))
			}
			sent = append(sent, h.commandWith(as, ch, h.alice, "challenge", h.userOption(h.bob), discordtest.StringOption("rules", "full")))
			var challenge *discordtest.Message
			h.dc.WaitUntil(t, "the challenge", func() bool {
				for _, m := range h.dc.Messages(ch) {
					if strings.Contains(m.Content, "<@"+h.bob.ID+">") && len(m.Components) > 0 {
						challenge = m
						return true
					}
				}
				return false
			})
			accept := buttonFor(t, challenge, ":accept:")
			require.Eventually(t, func() bool {
				c, err := h.store.Challenge(t.Context(), ch)
				return err == nil && c.MessageID == challenge.ID
			}, 5e9, 1e6)
			sent = append(sent, h.sendWith(as, h.dc.Button(challenge.ID, h.bob, accept)))
			board := h.boardAt(ch, 0)
			assert.Contains(t, board.Content, tc.board, "the board is in the server's language")
			g, err := h.store.Game(t.Context(), ch)
			require.NoError(t, err)
			first, second := h.players(g)

			// Refusals, each in the language of who asked.
			for id := range menus(board) {
				sent = append(sent, h.sendWith(as, h.dc.Select(board.ID, h.carol, id, "D4")))
				assert.Contains(t, h.refused(sent[len(sent)-1]), tc.private, "a spectator's refusal is in their language")
				break
			}
			sent = append(sent, h.commandWith(as, ch, second, "move", discordtest.StringOption("cell", "D4")))
			h.refused(sent[len(sent)-1])
			sent = append(sent, h.commandWith(as, ch, first, "move", discordtest.StringOption("cell", "Z99")))
			h.refused(sent[len(sent)-1])
			sent = append(sent, h.commandWith(as, ch, first, "help"))
			sent = append(sent, h.commandWith(as, ch, first, "settings"))

			// A draw offered and declined, a resignation thought better of.
			sent = append(sent, h.commandWith(as, ch, first, "draw"))
			offer := messageAfter(t, h.dc, sent[len(sent)-1], ch, "the draw offer", func(m *discordtest.Message) bool {
				return !m.Ephemeral() && strings.Contains(m.Content, "<@"+second.ID+">") && len(m.Components) > 0
			})
			sent = append(sent, h.sendWith(as, h.dc.Button(offer.ID, second, buttonFor(t, offer, ":draw-no:"))))
			sent = append(sent, h.commandWith(as, ch, first, "resign"))
			ask := h.dc.WaitOriginal(t, sent[len(sent)-1].ID, func(m *discordtest.Message) bool { return len(m.Components) > 0 })
			sent = append(sent, h.sendWith(as, h.dc.Button(ask.ID, first, buttonFor(t, ask, ":resign-no:"))))

			sent = append(sent, h.playOut(ch, as)...)
			final := h.waitBoard(ch, "the final board", func(m *discordtest.Message) bool { return len(menus(m)) == 0 })
			assert.Contains(t, final.Content, tc.over, "the final board is in the server's language")
			sent = append(sent, h.sendWith(as, h.dc.Button(final.ID, second, buttonFor(t, final, ":rematch:"))))
			sent = append(sent, h.commandWith(as, ch, first, "leaderboard"))
			sent = append(sent, h.commandWith(as, ch, first, "stats"))
			sent = append(sent, h.commandWith(as, ch, first, "history"))

			seen := h.seen([]string{ch}, sent)
			require.NotEmpty(t, seen.private)
			require.NotEmpty(t, seen.public)
			privateEnglish := english(englishPhrases(t), seen.private)
			assert.Empty(t, privateEnglish, "what only the players see is in their language")
			if tc.public == "en" {
				assert.NotEmpty(t, english(englishPhrases(t), seen.public), "the public messages are in English")
			} else {
				assert.Empty(t, english(englishPhrases(t), seen.public), "the public messages are in the server's language")
			}
		})
	}
}

// TestLanguageSetting: /kulami settings language is refused to members
// without Manage Server and for a language not in the list, and a server
// that speaks another language than the bot's gets English.
func TestLanguageSetting(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "gateway")
	ch := h.channel.ID
	fr := speaking(discordgo.French, discordgo.Japanese)
	h.refused(h.commandWith(fr, ch, h.alice, "settings", discordtest.StringOption("language", "de")), "Gérer le serveur")
	h.refused(h.commandWith(func(i *discordgo.Interaction) { fr(i); asAdmin(i) }, ch, h.alice, "settings", discordtest.StringOption("language", "it")),
		"Choisissez une langue dans la liste.")
	s, err := h.store.GuildSettings(t.Context(), h.dc.GuildID())
	require.NoError(t, err)
	assert.Empty(t, s.Language, "nothing changed")
	assert.Equal(t, "ja", s.Locale, "the server's locale is noted for messages without an interaction")
	u, err := h.store.UserSettings(t.Context(), h.alice.ID)
	require.NoError(t, err)
	assert.Equal(t, "fr", u.Locale, "the user's locale is noted for direct messages")

	text := h.reply(h.commandWith(fr, ch, h.alice, "settings"))
	assert.Contains(t, text, "**Langue**\u00a0: English, la langue du serveur", "a Japanese server gets English")

	i := h.commandWith(fr, ch, h.alice, "challenge", h.userOption(h.bob))
	m := messageAfter(t, h.dc, i, ch, "the challenge", func(m *discordtest.Message) bool { return !m.Ephemeral() })
	assert.Contains(t, m.Content, "challenges you to a game", "the challenge is in English")
	assert.Equal(t, "Défi envoyé à bob.", h.reply(i), "its confirmation in the challenger's language")

	text = h.reply(h.commandWith(func(i *discordgo.Interaction) { fr(i); asAdmin(i) }, ch, h.alice, "settings", discordtest.StringOption("language", "es")))
	assert.Contains(t, text, "Réglages enregistrés.")
	assert.Contains(t, text, "**Langue**\u00a0: Español")
	s, err = h.store.GuildSettings(t.Context(), h.dc.GuildID())
	require.NoError(t, err)
	assert.Equal(t, storage.GuildSettings{Threads: s.Threads, MoveTime: s.MoveTime, Hints: s.Hints, Language: "es", Locale: "ja", AutoTimeouts: s.AutoTimeouts}, s)
}

// TestReminderLanguages: the scheduler, without an interaction, writes in
// the server's language as last seen, and a direct message in the
// recipient's.
func TestReminderLanguages(t *testing.T) {
	t.Parallel()
	h := newManualHarness(t, "gateway")
	g := h.challengeAndAccept() // in English
	first, second := h.players(g)
	text := h.reply(h.commandWith(speaking(discordgo.French, discordgo.German), h.channel.ID, first, "notify", discordtest.StringOption("dm", "on")))
	assert.Contains(t, text, "par message privé", "the answer is in the user's language")

	h.tick(36 * time.Hour)
	dms := h.dc.Messages(h.dc.DMChannel(first.ID).ID)
	require.Len(t, dms, 1)
	assert.Contains(t, dms[0].Content, "C’est à vous de jouer dans votre partie de Kulami contre "+second.Username, "the DM is in the user's language")
	reminders := h.reminders(h.channel.ID)
	require.Len(t, reminders, 1)
	assert.Contains(t, reminders[0].Content, "du bist in deiner Kulami-Partie gegen "+second.Username, "the reminder is in the server's language")

	h.tick(36 * time.Hour)
	final := h.waitBoard(h.channel.ID, "the final board", func(m *discordtest.Message) bool { return len(menus(m)) == 0 })
	assert.Contains(t, final.Content, "**Partie beendet.**", "the timeout's board is in the server's language")
	assert.Contains(t, final.Content, "abgebrochen")
}

// TestComputerNamedInLanguage checks that the computer opponent is named
// in the server's language on its board and in the leaderboard, though
// its stored name is English.
func TestComputerNamedInLanguage(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "gateway")
	ch := h.channel.ID
	as := speaking(discordgo.French, discordgo.French)
	h.commandWith(as, ch, h.alice, "play", discordtest.StringOption("level", "medium"), discordtest.StringOption("first", "them"))
	board := h.waitBoard(ch, "the computer's first move", func(m *discordtest.Message) bool { return boardPly(m) == 1 })
	assert.Contains(t, board.Content, "IA Kulami (moyen)")
	assert.NotContains(t, board.Content, "Kulami AI")

	g, err := h.store.Game(t.Context(), ch)
	require.NoError(t, err)
	assert.Equal(t, "Kulami AI (medium)", g.Player(engine.Red).Name, "the stored name stays as it was")
	resign := h.commandWith(as, ch, h.alice, "resign")
	ask := h.dc.WaitOriginal(t, resign.ID, func(m *discordtest.Message) bool { return len(m.Components) > 0 })
	h.sendWith(as, h.dc.Button(ask.ID, h.alice, buttonFor(t, ask, ":resign-yes:")))
	_, err = h.store.Profile(t.Context(), h.dc.GuildID(), "ai:medium", storage.AI)
	require.NoError(t, err, "the resigned game counts on the AI ladder")
	i := h.commandWith(as, ch, h.alice, "leaderboard", discordtest.StringOption("ladder", "ai"))
	lb := h.dc.WaitResponse(t, i.ID)
	require.NotEmpty(t, lb.Embeds)
	assert.Contains(t, lb.Embeds[0].Description, "IA Kulami (moyen)")
	assert.NotContains(t, lb.Embeds[0].Description, "Kulami AI")
}
