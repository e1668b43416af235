package engine

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestHoles(t *testing.T) {
	for _, tt := range []struct {
		name string
		set  Holes
		want []Hole
	}{
		{"empty", 0, nil},
		{"one", 1 << 5, []Hole{5}},
		{"ends", 1 | 1<<63, []Hole{0, 63}},
		{"several", 0b1011 << 10, []Hole{10, 11, 13}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := slices.Collect(tt.set.All())
			assert.Equal(t, tt.want, got, "All")
			assert.Equal(t, len(tt.want), tt.set.Len(), "Len")
			for h := Hole(0); h < NumHoles; h++ {
				assert.Equal(t, slices.Contains(tt.want, h), tt.set.Has(h), "Has(%d)", h)
			}
			assert.False(t, tt.set.Has(NoHole), "Has(NoHole)")
			l := Square()
			var cells []Cell
			for _, h := range tt.want {
				cells = append(cells, l.Cell(h))
			}
			assert.Equal(t, len(cells), len(tt.set.Cells(l)))
			if len(cells) > 0 {
				assert.Equal(t, cells, tt.set.Cells(l), "Cells")
			}
		})
	}
}

func TestHolesAllStopsWhenAsked(t *testing.T) {
	var seen []Hole
	for h := range (^Holes(0)).All() {
		seen = append(seen, h)
		if len(seen) == 3 {
			break
		}
	}
	assert.Equal(t, []Hole{0, 1, 2}, seen)
}
