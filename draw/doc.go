// Package draw makes the board images the bot answers every move with:
// PNG pictures of a Kulami position for Discord's dark and light themes.
//
// An image shows a header with a box per player (marble, name, points and
// panels held under the game's rule set and, under the rule sets with
// bonuses, the points' parts: "18 + 4 area + 3 lines"), the board with
// coordinates A–J and 1–10 on all four edges (A1 top left, as in
// RULES.md), a one-line key to the marks, and a footer with the move
// number, who is to play and the rule set. The marks differ in shape: a
// legal hole of the player to move has a small dot, the last marble a bold
// ring, the one before it a thin broken ring, and the two panels closed to
// the next move are darkened and striped. At the end, every panel is
// tinted by its holder, the rule sets that count them get each colour's
// largest group outlined (area, full) and a bar through every scoring
// line (lines, full), the key explains those, and the footer gives the
// result, why the game ended (Options.Reason, or the image's own words
// when it ended on the board) and the score table.
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
// or draw.Render for a Renderer shared by the package. Options.Over,
// Options.Outcome and Options.Reason show a game that ended off the board
// (resignation, timeout, agreed draw, abort) as final, with its own result
// line and reason.
//
// # Words and numbers
//
// Every word an image shows is in a Text (English by default), which a
// caller may replace with a translation through Options.Text; numbers are
// written by Text.Number and plural forms chosen by Text.One.
//
// # Speed and size
//
// Renderer.Stats reports what a Renderer did (renders, their time, the
// cache's hits and misses) as plain figures, for monitoring.
//
// A Renderer keeps two kinds of things in a cache bounded in bytes
// (Config.CacheBytes, DefaultCacheBytes if zero): per layout, width and
// theme, the empty board (frame, coordinates, panels, holes), packed into
// runs of palette colours, about 75 KB at 800 pixels, so that several
// hundred layouts fit in the default 64 MiB; and per width, theme and cell
// size, a kit of what all layouts share (the marbles and marks pre-drawn
// at the cell size, the header with each box outlined, the key's icons,
// the type faces). A board is drawn from rounded rectangles whose pixels
// are covered by their distance to the edge, and pre-drawn holes: a few
// milliseconds. A render paints the packed board, lays the sprites over
// it, writes the text, maps the colours to a palette of at most 64 made
// once per theme from reference images (the colours filling large areas
// kept exactly) and encodes a one-byte-per-pixel PNG at the fastest
// compression. The design is flat (few edges per marble and hole) because
// at 800 pixels a row of cells is wider than deflate's 32 KB window, so
// every edge is paid for again in each row of cells.
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
//	red and black rims                  4.29:1 (deuteranopia)
//	red and black marble bodies         2.72:1 (protanopia)
//	black marble and wood               8.06:1 (protanopia)
//	red rim and wood                    3.72:1 (deuteranopia)
//	black rim and black body           10.26:1 (deuteranopia)
//	mark and its edge                  10.50:1 (deuteranopia)
//	mark's edge and wood                7.32:1 (protanopia)
//	closed and open panels              3.01:1 (protanopia)
//	red's and black's panels at end     2.57:1 (protanopia)
//	black's panels and the frame        2.31:1 (protanopia)
//	empty hole on black's panel         1.84:1 (tritanopia)
//	empty hole on red's panel           1.90:1 (deuteranopia)
//
// Closed panels are striped as well as darkened, and the three marks
// differ in shape, so none relies on colour alone.
//
// Options.Marbles = ColourBlind draws a second set, for players who tell
// red from black badly: red's marbles in the Okabe–Ito orange with a dark
// brown rim, black's in black with a light rim and a light upright cross,
// a shape that tells them apart even in greyscale. Their tints at the end,
// their outlines, the players' boxes, the key, the score table, the
// replays and the chart (Chart.Marbles) follow the set. The same tests,
// with greyscale as a fifth kind of vision, give as the weakest figures:
//
//	orange and black marble bodies      7.43:1 (protanopia)
//	orange rim and wood                 5.63:1 (deuteranopia)
//	cross and black marble             15.13:1 (deuteranopia)
//	orange's and black's panels at end  3.24:1 (protanopia)
//	each marble on the wood, orange's
//	  panels, either theme's box or
//	  background                        4.95:1 (protanopia)
//	an orange marble on black's panel   2.40:1 (protanopia)
//	ΔE (CIE76) of the two bodies        65.5 (greyscale; standard 39.5)
//
// An outline of a largest group has a gap wherever a scoring line's bar
// crosses it, so the two never overlap.
//
// # Text
//
// Names, scores, coordinates and the footer are at least 25 pixels at 800
// wide, 11 pixels or more when a phone shows the image 360 pixels wide;
// so is every text of the win-chance chart (Chart) and of the standings
// (Standings), at any width.
//
// No text is ever cut. A text wraps at its spaces onto a bounded number
// of lines and the image grows to hold them: the points and panels in a
// player's box (the boxes are as tall as the widest score, whatever the
// position, so that the board stays in place from move to move), the
// footer's line, the result and the reason a game ended, the note
// (Options.Note), the key (a row per group of entries that fit), the
// chart's title, the standings' title and caption. A separator "·" where
// a line breaks is left out, and "+" or a dash starts the next line. The
// only text that may be shortened is a name: a name is never broken
// across lines, and where the lines would not hold it otherwise (a name
// wider than a line, or more lines than allowed) it ends in an ellipsis.
// Texts come to the image as plain text: the bot gives the plain forms of
// its messages, without Markdown. A Report (Options.Report, Chart.Report,
// Standings.Report) lists every text an image laid out, the lines it was
// drawn in and its room; Report.Problems says which were cut, went out of
// their room or touch another, for the tests that draw every image in
// every language with the longest names.
//
// The Go fonts (golang.org/x/image/font/gofont, BSD licence) are embedded:
// Latin, Greek and Cyrillic. For the letters of names in other scripts
// every image (boards, replays, charts, standings) uses the same fallback
// fonts, the Renderer's (Config.Fonts, or SystemFonts that exist:
// Debian's fonts-noto-cjk and fonts-dejavu-core); a name with a letter no
// font has is shown as its colour ("Red", "Black"), never as boxes.
// Right-to-left letters are drawn in reading order but not joined (Arabic
// appears in its isolated forms). Emoji and other symbols no font has are
// left out and invisible characters are dropped. Numbers are written as
// the caller's language writes them (Text.Number, ChartTexts.Percent, the
// standings' strings). With the ColourBlind marbles red's colour is named
// Text.ColourBlindRed ("Orange").
//
// The tests never depend on a machine's fonts: drawtest.Fonts ships DejaVu
// Sans and a subset of Noto Sans CJK (both under permissive licences, see
// drawtest/fonts) with the letters of the test names.
//
// Renderer.Animate draws a game's replay as an animated GIF, a frame a
// move, and writes each frame as soon as it is drawn (a frame after the
// first holds only the pixels that changed): a replay holds two frames'
// pixels at a time, about 0.3 MB at DefaultAnimationWidth, whatever the
// game's length (BenchmarkAnimateConcurrent reports the heap's peak).
//
// # Determinism
//
// The same position and options give the same bytes on one machine: the
// palette is built in a fixed order from the embedded fonts only. The
// drawing libraries use floating point, and the Go compiler may fuse a
// multiplication and an addition on some processors (arm64, ppc64, s390x),
// so an image made there may differ from one made on amd64 in the
// anti-aliasing of a few pixels; the golden tests allow for that. A name
// drawn in a fallback font depends on the fonts installed.
package draw
