package bot

import (
	"context"
	"log/slog"
	"sync"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/draw"
	"github.com/kulami/kulami/storage"
)

// Who reads which language: what only the person who clicked or typed
// sees (refusals, confirmations, help) is in their Discord client's
// language, the interaction's locale; what the whole channel sees
// (challenges, boards, reminders, the leaderboard) is in the server's,
// the language chosen with /kulami settings language, else the server's
// Discord locale. Messages without an interaction (reminders, timeouts)
// take the server's locale as last seen; direct messages the recipient's.

// locales knows which language each public message and direct message
// is in: it reads the servers' and users' settings, and notes the locales
// the interactions carry with them. It is safe for concurrent use.
type locales struct {
	store SettingsStore
	log   *slog.Logger
	// noted are the locales noted with the settings lately ("g:" or "u:"
	// and the guild or user ID → locale), so each is written once.
	noted sync.Map
}

// lang returns the language of the person who caused the interaction.
func (c *interaction) lang() i18n.Lang {
	return i18n.FromLocale(string(c.i.Locale))
}

// publicLang returns the language of the messages the interaction causes
// that everyone in its channel reads; in a DM, the user's.
func (l *locales) publicLang(c *interaction) i18n.Lang {
	if c.i.GuildID == "" {
		return c.lang()
	}
	if c.public == "" {
		s := l.guildSettings(c.ctx, c.i.GuildID)
		if l, ok := i18n.Parse(s.Language); ok {
			c.public = l
		} else if c.i.GuildLocale != nil {
			c.public = i18n.FromLocale(string(*c.i.GuildLocale))
		} else {
			c.public = i18n.FromLocale(s.Locale)
		}
	}
	return c.public
}

// langOf returns the language of a public message in guildID caused by c,
// or by nobody if c is nil (the computer's moves, the scheduler).
func (l *locales) langOf(ctx context.Context, c *interaction, guildID string) i18n.Lang {
	if c != nil {
		return l.publicLang(c)
	}
	return l.guildLang(ctx, guildID)
}

// guildLang returns the language of a guild's public messages sent
// without an interaction.
func (l *locales) guildLang(ctx context.Context, guildID string) i18n.Lang {
	s := l.guildSettings(ctx, guildID)
	if l, ok := i18n.Parse(s.Language); ok {
		return l
	}
	return i18n.FromLocale(s.Locale)
}

// guildSettings returns a guild's settings, or the defaults if they
// cannot be read (logged): a language is no reason to fail a message.
func (l *locales) guildSettings(ctx context.Context, guildID string) storage.GuildSettings {
	s, err := l.store.GuildSettings(ctx, guildID)
	if err != nil {
		l.log.Warn("cannot read a guild's settings for its language", "guild", guildID, "err", err)
	}
	return s
}

// userLang returns the language of a user's direct messages: their
// Discord locale as last seen.
func (l *locales) userLang(ctx context.Context, userID string) i18n.Lang {
	u, err := l.store.UserSettings(ctx, userID)
	if err != nil {
		l.log.Warn("cannot read a user's settings for their language", "user", userID, "err", err)
	}
	return i18n.FromLocale(u.Locale)
}

// noteLocales keeps the interaction's guild locale and user locale with
// their settings when they changed, for the messages sent later without
// an interaction. What was noted is remembered, so that an interaction
// costs no write unless a locale changed.
func (l *locales) noteLocales(c *interaction) {
	if c.guild() != everywhere && c.i.GuildLocale != nil { // a server without the bot keeps no settings here
		l.noteLocale("g:"+c.i.GuildID, string(*c.i.GuildLocale), func(locale string) error {
			s, err := l.store.GuildSettings(c.ctx, c.i.GuildID)
			if err != nil || s.Locale == locale {
				return err
			}
			_, err = l.store.UpdateGuildSettings(c.ctx, c.i.GuildID, func(s *storage.GuildSettings) error {
				s.Locale = locale
				return nil
			})
			return err
		})
	}
	if u := c.user(); u.ID != "" && c.i.Locale != "" {
		l.noteLocale("u:"+u.ID, string(c.i.Locale), func(locale string) error {
			s, err := l.store.UserSettings(c.ctx, u.ID)
			if err != nil || s.Locale == locale {
				return err
			}
			_, err = l.store.UpdateUserSettings(c.ctx, u.ID, func(s *storage.UserSettings) error {
				s.Locale = locale
				return nil
			})
			return err
		})
	}
}

// noteLocale stores locale under key with store, unless it is the locale
// noted last for key.
func (l *locales) noteLocale(key, locale string, store func(locale string) error) {
	if was, ok := l.noted.Load(key); ok && was == locale {
		return
	}
	if err := store(locale); err != nil {
		l.log.Warn("cannot keep a locale", "key", key, "err", err)
		return
	}
	l.noted.Store(key, locale)
}

// drawTexts are the board image's texts in each language, made once:
// for the players' boards, and for a puzzle's, which addresses its reader.
var drawTexts, drawYouTexts = func() (m, you map[i18n.Lang]*draw.Text) {
	m, you = map[i18n.Lang]*draw.Text{}, map[i18n.Lang]*draw.Text{}
	for _, l := range i18n.Langs() {
		t, y := l.Draw(), l.DrawYou()
		m[l], you[l] = &t, &y
	}
	return m, you
}()

// drawText returns the board image's texts in l.
func drawText(l i18n.Lang) *draw.Text { return inLang(drawTexts, l) }

// drawYouText returns the texts in l of a board image for the one who
// plays the colour to move (a puzzle's solver).
func drawYouText(l i18n.Lang) *draw.Text { return inLang(drawYouTexts, l) }

// inLang returns the texts of m in l, or in English.
func inLang(m map[i18n.Lang]*draw.Text, l i18n.Lang) *draw.Text {
	if t, ok := m[l]; ok {
		return t
	}
	return m[i18n.English]
}
