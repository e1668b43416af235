package draw

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/draw/drawtest"
)

// standingsCase is the standings of a 12-player tournament after its last
// round, with a withdrawn player, a long name, a Chinese one and a Hebrew
// one, and two players sharing the bronze medal.
func standingsCase() Standings {
	names := []string{"Amélie", "bob", "Carol", "Dmitri the Very Long Named Player of Kulami", "Eve", "Farid",
		"田中", "Hiro", "Ines", "Jonas", "Kaja", "דני כהן"}
	points := []string{"7", "6½", "6", "6", "5", "4½", "4", "4", "3", "2½", "2", "1"}
	s := Standings{Title: "Autumn Swiss", Caption: "Final standings after round 4 of 4",
		Columns: [5]string{"Player", "Points", "BH-1", "BH", "SB"}}
	for i, n := range names {
		rank, tb := i+1, i
		if i == 3 {
			rank, tb = 3, 2 // tied with the one above on every tie-break
		}
		medal := 0
		if rank <= 3 {
			medal = rank
		}
		s.Rows = append(s.Rows, StandingsRow{Rank: rank, Medal: medal, Name: n, Points: points[i], Cut: fmt.Sprint(14 - tb), Buchholz: fmt.Sprint(16 - tb),
			SB: fmt.Sprintf("%.2f", 10-float64(tb)*0.75), Withdrawn: i == 10})
	}
	return s
}

func TestStandingsGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    Standings
	}{
		{"standings", standingsCase()},
		{"standings_light_360", func() Standings { s := standingsCase(); s.Theme, s.Width = Light, 360; return s }()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, NewRenderer(Config{Fonts: drawtest.Fonts(t)}).RenderStandings(&buf, tc.s))
			drawtest.AssertGolden(t, tc.name, buf.Bytes())
		})
	}
}

// TestStandingsSize: the image grows with its rows up to
// MaxStandingsRows, then says how many more there are.
func TestStandingsSize(t *testing.T) {
	s := standingsCase()
	small, err := s.Image()
	require.NoError(t, err)
	for len(s.Rows) < MaxStandingsRows+5 {
		s.Rows = append(s.Rows, StandingsRow{Rank: len(s.Rows) + 1, Name: "x", Points: "0"})
	}
	big, err := s.Image()
	require.NoError(t, err)
	assert.Equal(t, DefaultWidth, big.Bounds().Dx())
	assert.Greater(t, big.Bounds().Dy(), small.Bounds().Dy())
	s.Rows = append(s.Rows, s.Rows...)
	bigger, err := s.Image()
	require.NoError(t, err)
	assert.Equal(t, big.Bounds(), bigger.Bounds(), "rows beyond the most shown add no height")
	_, err = Standings{Width: 100}.Image()
	assert.ErrorIs(t, err, ErrOptions)
	_, err = Standings{Theme: 9}.Image()
	assert.ErrorIs(t, err, ErrOptions)
}
