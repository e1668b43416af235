package bot

import (
	"bytes"
	"fmt"

	"github.com/kulami/kulami/draw"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/storage"
)

// maxUpload is the largest file the bot posts: 8 MB, the smallest upload
// limit Discord gives a server.
const maxUpload = 8 << 20

// errReplayTooLarge: a game's replay is over maxUpload.
var errReplayTooLarge = refuse("This game's replay is too large for Discord. **/kulami export** gives its record, which `kulami render --gif` turns into a GIF.")

// replayGIF answers Replay (GIF) on the final board of f: the animated
// replay of the whole game, a frame a move, posted in the channel. At
// draw.DefaultAnimationWidth a whole game is well under a megabyte, so
// maxUpload is a guard, not a limit people meet.
func (b *Bot) replayGIF(c *interaction, f *storage.FinishedGame) error {
	rec, err := engine.ParseRecord(f.Record)
	if err != nil {
		return err
	}
	if len(rec.Moves) == 0 {
		return refuse("Game #%d ended before anyone moved: there is nothing to replay.", f.ID)
	}
	a := draw.Animation{Record: rec, Options: draw.Options{Names: names(&f.Game), Over: true}}
	a.Options.Outcome, a.Options.Reason = outcome(&f.Game, false)
	var gif bytes.Buffer
	if err := b.renderer.Animate(&gif, a); err != nil {
		return fmt.Errorf("animate game %d: %w", f.ID, err)
	}
	if gif.Len() > maxUpload {
		return errReplayTooLarge
	}
	return c.reply(message{
		content: fmt.Sprintf("Replay of game #%d: %s %s vs %s %s, %s.", f.ID, colorMark[engine.Red], escape(f.Player(engine.Red).Name),
			colorMark[engine.Black], escape(f.Player(engine.Black).Name), count(len(rec.Moves), "move", "moves")),
		file: &attachment{name: fmt.Sprintf("kulami-%d.gif", f.ID), contentType: "image/gif", data: gif.Bytes()},
	})
}
