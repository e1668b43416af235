package bot

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/bot/jobs"
	"github.com/kulami/kulami/draw"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/storage"
)

// maxUpload is the largest file the bot posts: 8 MB, the smallest upload
// limit Discord gives a server.
const maxUpload = 8 << 20

// errReplayTooLarge: a game's replay is over maxUpload.
var errReplayTooLarge = refuse("replay.too_large")

// replayGIF answers Replay (GIF) on the final board of f: the animated
// replay of the whole game, a frame a move, posted in the channel. A
// game's replay is drawn once, within the render bound after the boards
// waiting, and kept (rv.replays); clicks while it is drawn or posted wait
// for it, and a click within replayRepost of the post is answered, only
// for the clicker, with a link to it, so that many clicks post one
// replay. A click later posts the replay kept again. Drawing or posting
// counts for the clicker's cooldown. At draw.DefaultAnimationWidth a whole
// game is well under a megabyte, so maxUpload is a guard, not a limit
// people meet.
func (rv *reviews) replayGIF(c *interaction, f *storage.FinishedGame) error {
	rec, err := engine.ParseRecord(f.RecordText)
	if err != nil {
		return err
	}
	if len(rec.Moves) == 0 {
		return refuse("replay.empty", "Game", f.ID)
	}
	lang := rv.langs.publicLang(c)
	_, lk := rv.views.guildLook(c.ctx, f.GuildID)
	kept := rv.replays.Get(replayKey{guild: f.GuildID, game: f.ID, lang: lang, look: lk}, newReplay)
	r := kept.Value
	select {
	case r.turn <- struct{}{}:
	case <-c.ctx.Done():
		return c.ctx.Err()
	}
	defer func() { <-r.turn }()
	now := rv.clock.Now()
	if r.link != "" && now.Sub(r.posted) < replayRepost {
		return c.say(c.lang().T("replay.posted", "Game", f.ID, "Link", r.link))
	}
	user := c.user().ID
	if at, ok := rv.cooldowns.ready(jobGIF, user, now); !ok {
		return c.say(c.lang().T("replay.cooldown", "When", timestamp(at)))
	}
	if r.gif == nil {
		gif, err := rv.animate(lang, f, rec, lk)
		if err != nil {
			return err
		}
		r.gif = gif
		rv.replays.Size(kept, len(gif))
	}
	rv.cooldowns.take(jobGIF, user, now)
	m, err := c.post(message{
		content: lang.N("replay.message", len(rec.Moves), "Game", f.ID, "Red", colorMark[engine.Red]+" "+escape(playerName(lang, f.Player(engine.Red))),
			"Black", colorMark[engine.Black]+" "+escape(playerName(lang, f.Player(engine.Black)))),
		file: &attachment{name: fmt.Sprintf("kulami-%d.gif", f.ID), contentType: "image/gif", data: r.gif,
			description: lang.T("alt.replay", "Game", f.ID, "Red", playerName(lang, f.Player(engine.Red)), "Black", playerName(lang, f.Player(engine.Black)))},
	})
	if err != nil {
		return err
	}
	guild := c.i.GuildID
	if guild == "" {
		guild = "@me" // a DM or group DM
	}
	r.link, r.posted = fmt.Sprintf("https://discord.com/channels/%s/%s/%s", guild, c.i.ChannelID, m.ID), now
	return nil
}

// replayAnimation is the replay of f, whose record is rec, for readers
// of lang in the look lk: its last frame says how the game ended, in
// plain words.
func replayAnimation(lang i18n.Lang, f *storage.FinishedGame, rec *engine.Record, lk look) draw.Animation {
	a := draw.Animation{Record: rec, Options: draw.Options{Names: names(lang, &f.Game), Over: true, Winner: winner(&f.Game), Text: drawText(lang), Theme: lk.theme, Marbles: lk.marbles}}
	a.Options.Outcome, a.Options.Reason = outcome(lang, &f.Game, playerName, true)
	return a
}

// animate draws the replay of f, whose record is rec, in lang, as lk
// says.
func (rv *reviews) animate(lang i18n.Lang, f *storage.FinishedGame, rec *engine.Record, lk look) ([]byte, error) {
	a := replayAnimation(lang, f, rec, lk)
	var gif bytes.Buffer
	err := rv.views.render(jobGIF, func() error { return rv.views.renderer.Animate(&gif, a) })
	if errors.Is(err, jobs.ErrQueueFull) {
		return nil, refuse("replay.busy")
	} else if err != nil {
		return nil, fmt.Errorf("animate game %d: %w", f.ID, err)
	}
	if gif.Len() > maxUpload {
		return nil, errReplayTooLarge
	}
	// Kept for the replay's later posts: a copy of its size, not the
	// buffer, which may have grown to twice that.
	return bytes.Clone(gif.Bytes()), nil
}
