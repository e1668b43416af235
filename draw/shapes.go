package draw

import (
	"image"
	"image/color"
	"math"
)

// roundRect is a rectangle with rounded corners in sub-pixel coordinates.
// Filling one computes each pixel's coverage from its distance to the
// edge, which costs a few operations a pixel: far cheaper on large areas
// than a general path rasterizer.
type roundRect struct{ x0, y0, x1, y1, r float64 }

// inset returns rr shrunk by d on every side.
func (rr roundRect) inset(d float64) roundRect {
	return roundRect{rr.x0 + d, rr.y0 + d, rr.x1 - d, rr.y1 - d, max(0, rr.r-d)}
}

// stripes are the diagonal stripes of a closed panel, running down to the
// left, step apart and width wide, the first through origin.
type stripes struct {
	origin      image.Point
	step, width float64
}

// cover returns how much of pixel (x, y) the stripes cover, 0 to 1.
func (s *stripes) cover(x, y int) float64 {
	u := float64(x-s.origin.X+y-s.origin.Y) + 1 // x+y at the pixel's centre
	d := math.Abs(u - s.step*math.Round(u/s.step))
	return min(1, max(0, s.width/2-d/math.Sqrt2+0.5))
}

// fill lays the premultiplied colour c over the pixels of dst that rr
// covers, or only over its stripes if s is not nil. It is draw.DrawMask
// with a uniform source and draw.Over. Each pixel's coverage comes from
// its distance to the edge; across the middle of a row, where that
// distance is the same for every pixel, it is computed once.
func fill(dst *image.RGBA, rr roundRect, c color.RGBA, s *stripes) {
	b := image.Rect(int(math.Floor(rr.x0)), int(math.Floor(rr.y0)), int(math.Ceil(rr.x1)), int(math.Ceil(rr.y1))).Intersect(dst.Rect)
	if b.Empty() {
		return
	}
	cx, cy := (rr.x0+rr.x1)/2, (rr.y0+rr.y1)/2
	hx, hy := (rr.x1-rr.x0)/2-rr.r, (rr.y1-rr.y0)/2-rr.r
	// The stripes' coverage by x+y, from b's top-left corner.
	var band []uint32
	if s != nil {
		band = make([]uint32, b.Dx()+b.Dy())
		for i := range band {
			band[i] = uint32(s.cover(b.Min.X+i, b.Min.Y)*0xff + 0.5)
		}
	}
	// The middle of a row: the pixels whose centres lie at least a pixel
	// inside the straight part of the left and right sides.
	xa := max(b.Min.X, int(math.Ceil(cx-hx+1-0.5)))
	xb := min(b.Max.X, int(math.Floor(cx+hx-1-0.5))+1)
	bl := newBlender(c)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		qy := math.Abs(float64(y)+0.5-cy) - hy
		row := dst.Pix[dst.PixOffset(b.Min.X, y):][:4*b.Dx()]
		mid := coverage(max(qy, -1) - rr.r)
		for x := b.Min.X; x < b.Max.X; x++ {
			a := mid
			if x == xa && xa < xb && a == 0xff && band == nil {
				// The whole middle fully covered: copies of an opaque
				// colour, or one pass of a translucent one.
				span := row[4*(xa-b.Min.X) : 4*(xb-b.Min.X)]
				if c.A == 0xff {
					for i := 0; i < len(span); i += len(bl.solid) {
						copy(span[i:], bl.solid[:])
					}
				} else {
					bl.over(span)
				}
				x = xb - 1
				continue
			}
			if x < xa || x >= xb {
				qx := math.Abs(float64(x)+0.5-cx) - hx
				if qx > 0 && qy > 0 {
					a = coverage(math.Hypot(qx, qy) - rr.r)
				} else {
					a = coverage(max(qx, qy) - rr.r)
				}
			} else if band == nil && mid == 0 {
				x = xb - 1
				continue
			}
			if band != nil {
				a = a * band[x-b.Min.X+y-b.Min.Y] / 0xff
			}
			if a != 0 {
				bl.blend(row[4*(x-b.Min.X):][:4:4], a)
			}
		}
	}
}

// coverage returns the share of a pixel (0–255) covered by a shape whose
// edge is dist from the pixel's centre, inside if dist is negative.
func coverage(dist float64) uint32 { return uint32(min(1, max(0, 0.5-dist))*0xff + 0.5) }

// blender lays a premultiplied colour over pixels at a given coverage.
type blender struct {
	src [4]uint32
	ca  uint32 // the colour's alpha
	// under is what is left of a channel's value under full coverage.
	under [256]uint8
	solid [256 * 4]byte // pixels of the colour, to fill a span with copies
}

func newBlender(c color.RGBA) *blender {
	bl := &blender{src: [4]uint32{uint32(c.R), uint32(c.G), uint32(c.B), uint32(c.A)}, ca: uint32(c.A)}
	for v := range bl.under {
		bl.under[v] = uint8((uint32(v)*(0xff-bl.ca) + 0x7f) / 0xff)
	}
	for i := 0; i < len(bl.solid); i += 4 {
		copy(bl.solid[i:], []byte{c.R, c.G, c.B, c.A})
	}
	return bl
}

// over lays the colour over every pixel of pix at full coverage.
func (bl *blender) over(pix []byte) {
	src := [4]uint8{uint8(bl.src[0]), uint8(bl.src[1]), uint8(bl.src[2]), uint8(bl.src[3])}
	for i := 0; i+3 < len(pix); i += 4 {
		p := pix[i : i+4 : i+4]
		p[0] = src[0] + bl.under[p[0]]
		p[1] = src[1] + bl.under[p[1]]
		p[2] = src[2] + bl.under[p[2]]
		p[3] = src[3] + bl.under[p[3]]
	}
}

// blend lays the colour over pixel p at coverage a (0–255).
func (bl *blender) blend(p []byte, a uint32) {
	switch a {
	case 0:
	case 0xff:
		p[0] = uint8(bl.src[0]) + bl.under[p[0]]
		p[1] = uint8(bl.src[1]) + bl.under[p[1]]
		p[2] = uint8(bl.src[2]) + bl.under[p[2]]
		p[3] = uint8(bl.src[3]) + bl.under[p[3]]
	default:
		kk := 0xff*0xff - bl.ca*a
		for ch := range p {
			p[ch] = uint8((bl.src[ch]*a*0xff + uint32(p[ch])*kk + 0x7f*0xff) / (0xff * 0xff))
		}
	}
}
