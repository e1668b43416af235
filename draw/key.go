package draw

import (
	"image"

	"github.com/kulami/kulami/engine"
)

// keyItem is one entry of the key: an icon and what it stands for.
type keyItem struct {
	icon  *image.RGBA
	label string
	name  string // for a player's name, the whole name, which label may shorten
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
		items = append(items, keyItem{label: t.KeyHeld}, keyItem{ic.held[engine.Red], st.names[engine.Red], st.names[engine.Red]}, keyItem{ic.held[engine.Black], st.names[engine.Black], st.names[engine.Black]})
		if st.opt.Rules.CountsArea() && max(st.p.LargestGroup(engine.Red).Len(), st.p.LargestGroup(engine.Black).Len()) >= 2 {
			items = append(items, keyItem{icon: ic.area, label: t.KeyArea})
		}
		if st.opt.Rules.CountsLines() && len(st.p.Lines()) > 0 {
			items = append(items, keyItem{icon: ic.line, label: t.KeyLine})
		}
		if last != engine.NoHole {
			items = append(items, keyItem{icon: ic.last, label: t.KeyLast})
		}
		if prev != engine.NoHole {
			items = append(items, keyItem{icon: ic.prev, label: t.KeyPrev})
		}
		return items
	}
	if !st.opt.HideLegal && st.p.Legal() != 0 {
		items = append(items, keyItem{icon: ic.legal, label: t.KeyLegal})
	}
	if last != engine.NoHole {
		items = append(items, keyItem{icon: ic.last, label: t.KeyLast})
	}
	if prev != engine.NoHole {
		items = append(items, keyItem{icon: ic.prev, label: t.KeyPrev})
	}
	if last != engine.NoHole {
		items = append(items, keyItem{icon: ic.closed, label: t.KeyClosed})
	}
	return items
}

// keyRows lays the key out in rows that fit the image's width, as few as
// it can: as many items in a row as fit, the image growing by a row for
// each row more. A name too wide for a row of its own is shortened with
// an ellipsis. An item without an icon is a heading, kept with the item
// after it.
func (st *state) keyRows(ic *icons) [][]keyItem {
	items := st.keyItems(ic)
	avail := st.g.width - 2*st.g.pad
	f := st.fs.get(roleKey)
	for i, it := range items {
		if it.name == "" {
			continue
		}
		group := items[i : i+1] // the name, and the heading it is kept with
		if i > 0 && items[i-1].icon == nil {
			group = items[i-1 : i+1]
		}
		items[i].label = ellipsize(f, it.label, avail-st.keyWidth(group)+textWidth(f, it.label))
	}
	var rows [][]keyItem
	for len(items) > 0 {
		k := 1
		for k < len(items) && (st.keyWidth(items[:k+1]) <= avail || items[k-1].icon == nil) {
			k++
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
		total += textWidth(f, it.label)
	}
	return total
}

// drawKey draws the rows of the key under the board, each centred.
func (st *state) drawKey(w *writer, rows [][]keyItem) {
	g := st.g
	gap, sep := px(8, g.scale), px(22, g.scale)
	f := st.fs.get(roleKey)
	rowH := px(keyRow, g.scale)
	for r, row := range rows {
		mid := g.keyY + px(keyPad+keyRow/2+float64(r*keyRow), g.scale)
		x := max(g.pad, (g.width-st.keyWidth(row))/2)
		y := mid + capHeight(f)/2
		for _, it := range row {
			if it.icon != nil {
				over(w.dst, image.Pt(x, mid-it.icon.Rect.Dy()/2), it.icon)
				x += it.icon.Rect.Dx() + gap
			}
			sp := spot{x: x, y: y, a: alignLeft, box: image.Rect(g.pad, mid-rowH/2, g.width-g.pad, mid+rowH/2)}
			p := paragraph{lines: []string{it.label}, text: it.label}
			if it.name != "" && it.label != it.name {
				p.short = []Shortened{{Name: it.name, Shown: it.label}}
			}
			w.paragraph("key", f, st.th.muted, p, sp)
			x += textWidth(f, it.label) + sep
		}
	}
}
