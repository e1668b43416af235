package drawtest

import (
	"fmt"
	"image"
	"image/color"
)

// CompareImages returns "" if got matches want up to a small tolerance (a
// few pixels off by a little, as another machine's arithmetic may give),
// or what differs.
func CompareImages(want, got image.Image) string {
	if want.Bounds() != got.Bounds() {
		return fmt.Sprintf("size %v, want %v", got.Bounds().Size(), want.Bounds().Size())
	}
	const channelTolerance = 24 // out of 255
	b := want.Bounds()
	off := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if channelDiff(want.At(x, y), got.At(x, y)) > channelTolerance {
				off++
			}
		}
	}
	if allowed := b.Dx() * b.Dy() / 2000; off > allowed {
		return fmt.Sprintf("%d pixels differ by more than %d, at most %d may", off, channelTolerance, allowed)
	}
	return ""
}

// channelDiff returns the largest difference between a and b in one of
// red, green and blue, out of 255.
func channelDiff(a, b color.Color) int {
	r1, g1, b1, _ := a.RGBA()
	r2, g2, b2, _ := b.RGBA()
	d := func(x, y uint32) int { return max(int(x>>8)-int(y>>8), int(y>>8)-int(x>>8)) }
	return max(d(r1, r2), d(g1, g2), d(b1, b2))
}
