package draw

import (
	"errors"
	"fmt"
	"strings"

	"github.com/kulami/kulami/engine"
)

// DefaultWidth is the width of an image when Options.Width is zero: Discord
// shows it inline at about half that on a phone and at full size on a
// desktop.
const DefaultWidth = 800

// MinWidth and MaxWidth bound Options.Width. Below MinWidth the text of the
// header is no longer readable; above MaxWidth an image only costs memory.
const (
	MinWidth = 320
	MaxWidth = 2400
)

// ErrOptions is wrapped by every error about unusable Options or a
// position that cannot be drawn.
var ErrOptions = errors.New("draw: bad options")

// Theme is the background the image is made for: Discord's dark or light
// theme. Only the header, the footer and the corners around the board
// change with it; the board itself looks the same on both.
type Theme uint8

// The two themes. Dark is the zero value, as most Discord users use it.
const (
	Dark  Theme = iota // background #313338
	Light              // background #FFFFFF
)

var themeNames = [...]string{Dark: "dark", Light: "light"}

// String returns "dark" or "light".
func (t Theme) String() string {
	if int(t) < len(themeNames) {
		return themeNames[t]
	}
	return fmt.Sprintf("Theme(%d)", uint8(t))
}

// ParseTheme reads "dark" or "light" in any letter case.
func ParseTheme(s string) (Theme, error) {
	if t, ok := parseName[Theme](themeNames[:], s); ok {
		return t, nil
	}
	return 0, fmt.Errorf("%w: theme must be dark or light, not %q", ErrOptions, s)
}

// parseName returns the value whose name in names is s, in any letter
// case.
func parseName[T ~uint8](names []string, s string) (T, bool) {
	for v, name := range names {
		if strings.EqualFold(s, name) {
			return T(v), true
		}
	}
	return 0, false
}

// Options say what an image shows and how big it is. The zero Options draw
// an 800-pixel-wide image for Discord's dark theme, scored under the basic
// rules, with the players called Red and Black and the legal holes marked.
type Options struct {
	// Width is the width of the image in pixels, from MinWidth to MaxWidth;
	// zero means DefaultWidth. The height follows from the layout's shape
	// and the header and footer.
	Width int
	// Theme is the Discord theme the image is shown on.
	Theme Theme
	// Marbles is the set of marbles the image is drawn with.
	Marbles Marbles
	// Names are the players' names indexed by engine.Color, as Discord shows
	// them: any Unicode. A name too wide for its place is cut short with an
	// ellipsis; emoji and other symbols no font has are left out; a name
	// that is empty or has letters no font has (the embedded Go fonts or
	// the Renderer's fallback fonts, see Config.Fonts) is shown as its
	// colour, never as boxes.
	Names [2]string
	// Rules is the game's rule set: it decides the score shown while the
	// game goes on and the breakdown at its end.
	Rules engine.Rules
	// HideLegal turns off the marks on the holes the player to move may
	// play. The last two marbles and the two panels closed to the next move
	// are always marked.
	HideLegal bool
	// Over shows the game as ended even though the position still has legal
	// moves: for a resignation, a timeout, an agreed draw or an abort. A
	// position with no legal move is always shown as ended.
	Over bool
	// Outcome is the result line shown when the game has ended, such as
	// "bob wins — alice resigned", in plain text (no Markdown), wrapped
	// onto more lines if it is long. When empty, the line says who won on
	// the board and by how much, or that the game is a draw.
	Outcome string
	// Reason says why the game ended, under the result line, such as
	// "alice ran out of time" or "draw agreed after move 31", in plain
	// text, wrapped onto more lines if it is long. When empty
	// and the game ended on the board, the image says so itself ("alice has
	// no legal hole after move 48", or that all marbles are placed).
	Reason string
	// Note is a line under the footer's, such as that the clock of the
	// player to move is stopped: wrapped onto a second line if it is
	// long, the image growing to hold it.
	Note string
	// Winner is the colour that won a game shown as ended with Over that
	// the board does not decide (a resignation, a timeout): its card is
	// outlined, as the winner's of a game played out. nil: nobody's (a
	// draw, an abort, or not known).
	Winner *engine.Color
	// Text holds the words the image shows; nil means English.
	Text *Text
	// Report, if not nil, collects the texts the image lays out (for an
	// animation, those of every frame).
	Report *Report
	// frame, for a frame of an animation before its last, makes the image
	// as tall as the last: the score table as it stands, where the last
	// shows its own (see Animate).
	frame *frame
}

// frame is how every frame of an animation is laid out at least, so that
// the board and the score table stay in place from frame to frame.
type frame struct {
	cardLines   int // the lines of the players' boxes
	footerLines int // the lines of the footer's texts above the score table
	keyRows     int // the rows of the key
}

// width returns the width to draw at, or an error naming the allowed range.
func (o *Options) width() (int, error) {
	switch {
	case o.Width == 0:
		return DefaultWidth, nil
	case o.Width < MinWidth || o.Width > MaxWidth:
		return 0, fmt.Errorf("%w: width %d is out of range; use %d to %d pixels", ErrOptions, o.Width, MinWidth, MaxWidth)
	}
	return o.Width, nil
}

// check returns an error if o or p cannot be drawn.
func (o *Options) check(p *engine.Position) error {
	if p == nil || p.Layout() == nil {
		return fmt.Errorf("%w: no position; start one with engine.NewPosition", ErrOptions)
	}
	if int(o.Theme) >= len(themeNames) {
		return fmt.Errorf("%w: unknown %v; use Dark or Light", ErrOptions, o.Theme)
	}
	if int(o.Marbles) >= len(marblesNames) {
		return fmt.Errorf("%w: unknown %v; use Standard or ColourBlind", ErrOptions, o.Marbles)
	}
	if o.Rules > engine.Full {
		return fmt.Errorf("%w: unknown rule set %v; use basic, area, lines or full", ErrOptions, o.Rules)
	}
	_, err := o.width()
	return err
}
