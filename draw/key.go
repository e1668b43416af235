package draw

import (
	"image"

	"github.com/kulami/kulami/engine"
)

// keyItem is one entry of the key: an icon and what it stands for.
type keyItem struct {
	icon  *image.RGBA
	label string
}

// keyItems returns the entries of the key for what the board shows: while
// the game goes on, the legal holes, the last two marbles and the closed
// panels; at its end, the tints of the panels held, the outline of the
// largest groups and the bars of the scoring lines where the rule set
// counts them and the board has some, and the last marble.
func (st *state) keyItems(ic *icons) []keyItem {
	t := st.t
	last, prev := st.p.Last()
	var items []keyItem
	if st.final {
		// The tints of the panels held, each labelled with its player.
		items = append(items, keyItem{nil, t.KeyHeld}, keyItem{ic.held[engine.Red], st.names[engine.Red]}, keyItem{ic.held[engine.Black], st.names[engine.Black]})
		if st.opt.Rules.CountsArea() && max(st.p.LargestGroup(engine.Red).Len(), st.p.LargestGroup(engine.Black).Len()) >= 2 {
			items = append(items, keyItem{ic.area, t.KeyArea})
		}
		if st.opt.Rules.CountsLines() && len(st.p.Lines()) > 0 {
			items = append(items, keyItem{ic.line, t.KeyLine})
		}
		if last != engine.NoHole {
			items = append(items, keyItem{ic.last, t.KeyLast})
		}
		if prev != engine.NoHole {
			items = append(items, keyItem{ic.prev, t.KeyPrev})
		}
		return items
	}
	if !st.opt.HideLegal && st.p.Legal() != 0 {
		items = append(items, keyItem{ic.legal, t.KeyLegal})
	}
	if last != engine.NoHole {
		items = append(items, keyItem{ic.last, t.KeyLast})
	}
	if prev != engine.NoHole {
		items = append(items, keyItem{ic.prev, t.KeyPrev})
	}
	if last != engine.NoHole {
		items = append(items, keyItem{ic.closed, t.KeyClosed})
	}
	return items
}

// maxKeyRows is how many rows the key may take.
const maxKeyRows = 3

// keyRows lays the key out in rows that fit the image's width at the key's
// size, as few as it can (at most maxKeyRows; a label that still does
// not fit ends in an ellipsis). An item without an icon is a heading,
// kept with the item after it.
func (st *state) keyRows(ic *icons) [][]keyItem {
	items := st.keyItems(ic)
	if len(items) == 0 {
		return nil
	}
	avail := st.g.width - 2*st.g.pad
	var rows [][]keyItem
	for len(items) > 0 {
		k := 1
		for k < len(items) && (st.keyWidth(items[:k+1]) <= avail || items[k-1].icon == nil) {
			k++
		}
		if len(rows) == maxKeyRows-1 {
			k = len(items)
		}
		rows, items = append(rows, items[:k]), items[k:]
	}
	return rows
}

// keyWidth is the width of a row of the key.
func (st *state) keyWidth(row []keyItem) int {
	g := st.g
	f := st.fs.get(roleKey)
	total := px(22, g.scale) * (len(row) - 1)
	for _, it := range row {
		if it.icon != nil {
			total += it.icon.Rect.Dx() + px(8, g.scale)
		}
		total += width(f, it.label)
	}
	return total
}

// drawKey draws the rows of the key under the board, each centred.
func (st *state) drawKey(dst *image.RGBA, rows [][]keyItem) {
	g := st.g
	gap, sep := px(8, g.scale), px(22, g.scale)
	avail := g.width - 2*g.pad
	f := st.fs.get(roleKey)
	for r, row := range rows {
		mid := g.keyY + px(keyPad+keyRow/2+float64(r*keyRow), g.scale)
		x := max(g.pad, (g.width-st.keyWidth(row))/2)
		for _, it := range row {
			if it.icon != nil {
				over(dst, image.Pt(x, mid-it.icon.Rect.Dy()/2), it.icon)
				x += it.icon.Rect.Dx() + gap
			}
			s := ellipsize(f, it.label, avail+g.pad-x)
			x += text(dst, f, st.th.muted, s, x, mid+capHeight(f)/2, alignLeft) + sep
		}
	}
}
