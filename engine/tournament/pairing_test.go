package tournament

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// played returns an entrant who moved first (F) or second (S) in order.
func played(moves string) *entrant {
	e := &entrant{}
	for _, m := range moves {
		e.moved(m == 'F')
	}
	return e
}

func TestFirstMoves(t *testing.T) {
	tests := []struct {
		name          string
		a, b          string
		games, board  int
		aFirst        bool
		broken, unmet int
	}{
		{"no history, odd board: the better placed starts", "", "", 1, 0, true, 0, 0},
		{"no history, even board: the other starts", "", "", 1, 1, false, 0, 0},
		{"third first in a row is refused", "FF", "", 1, 0, false, 0, 0},
		{"seconds 3 ahead are refused", "SS", "", 1, 1, true, 0, 0},
		{"balance over a run: FSFF then F would be 3 ahead", "FSFF", "SF", 1, 0, false, 0, 1},
		{"both want the same side: the better placed gets it", "FS", "FS", 1, 1, true, 0, 1},
		{"both must move second: a limit breaks either way", "FF", "FF", 1, 0, false, 1, 1},
		{"preferences met when they differ", "SF", "FS", 1, 0, false, 0, 0},
		{"duplicate: nobody breaks, the last to start starts second", "SF", "FS", 2, 0, false, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			aFirst, broken, unmet := firstMoves(played(tt.a), played(tt.b), tt.games, tt.board)
			assert.Equal(t, []any{tt.aFirst, tt.broken, tt.unmet}, []any{aFirst, broken, unmet})
		})
	}
}

func TestWeightsOrderLevels(t *testing.T) {
	// One unit on a level outweighs the most that every edge of a matching
	// can lose on all the levels below it.
	scale, big := weights(MaxPlayersLimit+1, 60)
	k := int64((MaxPlayersLimit+1)/2 + 1)
	most := [levels]int64{1, 2, 61 * 61, 2, MaxPlayersLimit + 1}
	for l := range levels - 1 {
		var below int64
		for m := l + 1; m < levels; m++ {
			below += scale[m] * most[m]
		}
		assert.Greater(t, scale[l], k*below, "level %d", l)
	}
	assert.Less(t, big, int64(1)<<60, "weights stay far from overflow")
}
