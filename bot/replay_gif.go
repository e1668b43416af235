package bot

import (
	"bytes"
	"errors"
	"fmt"

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
// replay of the whole game, a frame a move, posted in the channel. It is
// drawn within the render bound, after the boards waiting. At
// draw.DefaultAnimationWidth a whole game is well under a megabyte, so
// maxUpload is a guard, not a limit people meet.
func (b *Bot) replayGIF(c *interaction, f *storage.FinishedGame) error {
	rec, err := engine.ParseRecord(f.RecordText)
	if err != nil {
		return err
	}
	if len(rec.Moves) == 0 {
		return refuse("replay.empty", "Game", f.ID)
	}
	lang := b.publicLang(c)
	a := draw.Animation{Record: rec, Options: draw.Options{Names: names(lang, &f.Game), Over: true, Text: drawText(lang)}}
	a.Options.Outcome, a.Options.Reason = outcome(lang, &f.Game, playerName)
	var gif bytes.Buffer
	err = b.render(jobGIF, func() error { return b.renderer.Animate(&gif, a) })
	if errors.Is(err, jobs.ErrQueueFull) {
		return refuse("replay.busy")
	} else if err != nil {
		return fmt.Errorf("animate game %d: %w", f.ID, err)
	}
	if gif.Len() > maxUpload {
		return errReplayTooLarge
	}
	return c.reply(message{
		content: lang.N("replay.message", len(rec.Moves), "Game", f.ID, "Red", colorMark[engine.Red]+" "+escape(playerName(lang, f.Player(engine.Red))),
			"Black", colorMark[engine.Black]+" "+escape(playerName(lang, f.Player(engine.Black)))),
		file: &attachment{name: fmt.Sprintf("kulami-%d.gif", f.ID), contentType: "image/gif", data: gif.Bytes()},
	})
}
