package tournament

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWorkedExample plays testdata/worked8.txt: the pairings of each round
// and the final standings must be the ones computed by hand there.
func TestWorkedExample(t *testing.T) {
	f, err := os.Open("testdata/worked8.txt")
	require.NoError(t, err)
	defer f.Close()
	set := Settings{Name: "Worked example", Rounds: 3, DaysPerRound: 7, Start: t0.Add(time.Hour)}
	tour, err := New(set, "A", t0)
	require.NoError(t, err)
	now := set.Start
	var (
		round    int
		want     [][3]string // first, second, result of the round's boards
		standing []Standing
	)
	play := func() {
		require.Positive(t, round)
		if round == 1 {
			require.NoError(t, tour.Start(now))
		} else {
			require.NoError(t, tour.PairNext(now))
		}
		got := tour.Rounds()[round-1]
		require.Len(t, got.Pairings, len(want), "round %d", round)
		for i, w := range want {
			p := got.Pairings[i]
			require.Equal(t, [2]string{w[0], w[1]}, [2]string{p.First, p.Second}, "round %d board %d", round, i+1)
			var res Result
			require.NoError(t, res.UnmarshalText([]byte(w[2])))
			require.NoError(t, tour.Record(GameRef{Round: round, Board: i + 1, Game: 1}, res, now))
		}
		now = now.Add(24 * time.Hour)
		want = nil
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		switch fields[0] {
		case "player":
			require.NoError(t, tour.Join(fields[1], mustAtoi(t, fields[2]), t0))
		case "round":
			if want != nil {
				play()
			}
			round = mustAtoi(t, fields[1])
			want = [][3]string{}
		case "pair":
			want = append(want, [3]string{fields[1], fields[2], fields[3]})
		case "standing":
			standing = append(standing, Standing{Rank: mustAtoi(t, fields[1]), Player: fields[2],
				Points: half(t, fields[3]), BuchholzCut1: half(t, fields[4]), Buchholz: half(t, fields[5]),
				SonnebornBerger: mustFloat(t, fields[6])})
		default:
			t.Fatalf("unknown line %q", sc.Text())
		}
	}
	require.NoError(t, sc.Err())
	play()
	phase, _ := tour.State()
	assert.Equal(t, Finished, phase)
	got := tour.Standings()
	for i := range got {
		got[i].Rating = 0
	}
	assert.Equal(t, standing, got)
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	require.NoError(t, err)
	return n
}

func mustFloat(t *testing.T, s string) float64 {
	t.Helper()
	x, err := strconv.ParseFloat(s, 64)
	require.NoError(t, err)
	return x
}

// half reads points written as a decimal, like 2.5.
func half(t *testing.T, s string) Points {
	t.Helper()
	return Points(2 * mustFloat(t, s))
}
