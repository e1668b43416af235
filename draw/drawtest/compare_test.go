package drawtest

import (
	"image"
	"image/color"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCompareImages: a 100×100 image may have 5 pixels (one in 2000) off
// by any amount, and any number off by at most 24 of 255 in a channel.
func TestCompareImages(t *testing.T) {
	grey := color.RGBA{100, 100, 100, 255}
	want := image.NewRGBA(image.Rect(0, 0, 100, 100))
	for i := range 100 * 100 {
		want.Set(i%100, i/100, grey)
	}
	changed := func(n int, c color.Color) image.Image {
		im := image.NewRGBA(want.Rect)
		copy(im.Pix, want.Pix)
		for i := range n {
			im.Set(i%100, i/100, c)
		}
		return im
	}
	for _, tc := range []struct {
		name string
		got  image.Image
		same bool
	}{
		{"the same", changed(0, grey), true},
		{"every pixel a little off", changed(100*100, color.RGBA{124, 76, 124, 255}), true},
		{"five pixels far off", changed(5, color.RGBA{255, 0, 0, 255}), true},
		{"six pixels far off", changed(6, color.RGBA{255, 0, 0, 255}), false},
		{"every pixel just too far off", changed(100*100, color.RGBA{100, 125, 100, 255}), false},
		{"another size", image.NewRGBA(image.Rect(0, 0, 100, 99)), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if bad := CompareImages(want, tc.got); tc.same {
				assert.Empty(t, bad)
			} else {
				assert.NotEmpty(t, bad)
			}
		})
	}
}
