// Package draw makes the board images the bot answers every move with:
// PNG pictures of a Kulami position for Discord's dark and light themes.
//
// An image shows a header with a box per player (marble, name, points and
// panels held under the game's rule set, and whose turn it is), the board
// with coordinates A–J and 1–10 on all four edges (A1 top left, as in
// RULES.md), and a footer with the move number, who is to play and the rule
// set. On the board, the last marble carries a ring and a dot, the one
// before it a ring, the two panels closed to the next move are darkened
// and striped, and the legal holes of the player to move carry a dot. At
// the end, every panel is tinted by its holder, the footer gives the
// result and the score breakdown, and the rule sets that count them get
// each colour's largest group outlined (area, full) and a bar through
// every scoring line (lines, full).
//
// Usage:
//
//	r := draw.NewRenderer(draw.Config{CacheBytes: 64 << 20}) // one per bot; safe for concurrent use
//	log.Print(r.Fonts()) // the fallback fonts found for names, or why none
//	var buf bytes.Buffer
//	err := r.Render(&buf, &pos, draw.Options{
//		Names: [2]string{engine.Red: "alice", engine.Black: "bob"},
//		Rules: engine.Full,
//	})
//
// or draw.Render for a Renderer shared by the package. Options.Over and
// Options.Outcome show a game that ended off the board (resignation,
// timeout, agreed draw, abort) as final, with its own result line.
//
// # Speed and size
//
// A Renderer keeps, per layout, width and theme, the empty board (frame,
// coordinates, panels, holes, header boxes), the masks that shade or tint
// a panel and the marbles and marks pre-drawn at the cell size, in a cache
// of bounded size. A render copies the empty board, lays the pre-drawn
// sprites over it, writes the text, maps the colours to a palette of at
// most 64 made once per theme from reference images (the colours filling
// large areas kept exactly) and encodes a one-byte-per-pixel PNG at the
// fastest compression. The design is flat (few edges per marble and hole)
// because at 800 pixels a row of cells is wider than deflate's 32 KB
// window, so every edge is paid for again in each row of cells.
//
// # Colours and colour-blind players
//
// Red and black are told apart by more than hue: every black marble has a
// light grey rim and every red one a dark red rim, so the two differ in
// luminance at their edges as much as in their bodies. The panels are a
// light wood, so that both marble colours stand off them, and the marks
// are a light cyan with a dark edge, which stands off the wood, the red
// and the black marbles alike. The tests simulate protanopia,
// deuteranopia and tritanopia (Machado, Oliveira and Fernandes 2009, full
// severity) and check WCAG contrast ratios for every pair a player must
// tell apart; the weakest figures over the four kinds of vision are:
//
//	red and black rims               4.29:1 (deuteranopia)
//	red and black marble bodies      2.72:1 (protanopia)
//	black marble and wood            8.06:1 (protanopia)
//	red rim and wood                 3.72:1 (deuteranopia)
//	black rim and black body        10.26:1 (deuteranopia)
//	mark and its edge               10.50:1 (deuteranopia)
//	mark's edge and wood             7.32:1 (protanopia)
//	closed and open panels           3.01:1 (protanopia)
//	red's and black's panels at end  2.59:1 (protanopia)
//
// Closed panels are striped as well as darkened, and the last marble's
// mark differs from the previous one's in shape (a dot inside the ring),
// so neither relies on colour alone.
//
// # Text
//
// The Go fonts (golang.org/x/image/font/gofont, BSD licence) are embedded:
// Latin, Greek and Cyrillic. A name's letters the fonts lack (Chinese,
// Japanese, Korean, Arabic, …) are drawn as a box, emoji and other
// symbols they lack are left out, invisible characters are dropped and a
// name too wide for its place ends in an ellipsis; a name with nothing
// left is shown as its colour.
//
// # Determinism
//
// The same position and options give the same bytes: the palette is built
// in a fixed order and nothing depends on the system. The drawing
// libraries use floating point, and the Go compiler may fuse a
// multiplication and an addition on some processors (arm64, ppc64, s390x),
// so an image made there may differ from one made on amd64 in the
// anti-aliasing of a few pixels; the golden tests allow for that.
package draw
