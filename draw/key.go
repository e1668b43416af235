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
		items = append(items, keyItem{ic.held, t.KeyHeld})
		if st.opt.Rules.CountsArea() && max(st.p.LargestGroup(engine.Red).Len(), st.p.LargestGroup(engine.Black).Len()) >= 2 {
			items = append(items, keyItem{ic.area, t.KeyArea})
		}
		if st.opt.Rules.CountsLines() && len(st.p.Lines()) > 0 {
			items = append(items, keyItem{ic.line, t.KeyLine})
		}
		if last != engine.NoHole {
			items = append(items, keyItem{ic.last, t.KeyLast})
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

// drawKey draws the key on one line under the board, centred, its text
// shrunk as far as the key role allows to fit.
func (st *state) drawKey(dst *image.RGBA, ic *icons) {
	g := st.g
	items := st.keyItems(ic)
	if len(items) == 0 {
		return
	}
	gap, sep := px(8, g.scale), px(22, g.scale)
	avail := g.width - 2*g.pad
	// The widest size at which the whole line fits.
	size := roleSizes[roleKey].size
	total := 0
	for ; ; size-- {
		f := st.fs.sized(roleKey, size)
		total = sep * (len(items) - 1)
		for _, it := range items {
			total += it.icon.Rect.Dx() + gap + width(f, it.label)
		}
		if total <= avail || size <= roleSizes[roleKey].min {
			break
		}
	}
	f := st.fs.sized(roleKey, size)
	mid := g.keyY + px(keyHeight/2, g.scale)
	x := max(g.pad, (g.width-total)/2)
	for _, it := range items {
		over(dst, image.Pt(x, mid-it.icon.Rect.Dy()/2), it.icon)
		x += it.icon.Rect.Dx() + gap
		w := avail + g.pad - x
		s := ellipsize(f, it.label, w)
		x += text(dst, f, st.th.muted, s, x, mid+capHeight(f)/2, alignLeft) + sep
	}
}
