package storage

import (
	"bytes"
	"encoding"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FuzzDecodeGame feeds arbitrary bytes to the decoder of stored games. A
// value it accepts encodes to a fixed point: decoding and encoding it again
// changes nothing. A value that game.Restore accepts is stored back as it
// was read. Anything refused is ErrCorrupt.
func FuzzDecodeGame(f *testing.F) {
	cfg := squareConfig(alice, bob)
	cfg.MoveTime = time.Hour
	g := mustNewGame(f, "c", cfg)
	g.BoardMessageID = "555"
	for _, m := range []string{"D4", "D7", "F7"} {
		require.NoError(f, play(g, mustCell(f, m)))
	}
	require.NoError(f, g.OfferDraw(engine.Black, t0))
	for _, r := range []*gameRecord{g.record(), newGame(f, "ai", easyAI, carol).record()} {
		b, err := encode(r)
		require.NoError(f, err)
		f.Add(b)
	}
	require.NoError(f, g.Timeout(g.Deadline()))
	b, err := encode(g.record())
	require.NoError(f, err)
	f.Add(b)
	f.Add([]byte(`{"v":2,"data":{}}`))
	f.Add([]byte(`{"v":1,"data":{"moves":[{"cell":"K1"}]}}`))
	f.Add([]byte(`{"v":1,"data":{"result":{"ending":"won"}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var r gameRecord
		if err := decode(b, &r); err != nil {
			assert.ErrorIs(t, err, ErrCorrupt)
			return
		}
		once, err := encode(&r)
		if err != nil {
			// Only a value that has no name (an enumeration out of
			// range, which JSON cannot hold) fails to encode.
			assert.ErrorIs(t, err, game.ErrInvalid)
			return
		}
		var again gameRecord
		require.NoError(t, decode(once, &again))
		twice, err := encode(&again)
		require.NoError(t, err)
		assert.Equal(t, string(once), string(twice))

		g, err := r.game()
		if err != nil {
			assert.ErrorIs(t, err, ErrCorrupt)
			return
		}
		stored, err := encode(g.record())
		require.NoError(t, err)
		var back gameRecord
		require.NoError(t, decode(stored, &back))
		g2, err := back.game()
		require.NoError(t, err, "a game that was read is read back")
		restored, err := encode(g2.record())
		require.NoError(t, err)
		assert.Equal(t, string(stored), string(restored))
		if err := g.check(); err != nil {
			assert.ErrorIs(t, err, ErrInvalid)
		}
	})
}

// FuzzWakeKey checks that wake keys and wakes map one to one.
func FuzzWakeKey(f *testing.F) {
	f.Add(t0.UnixNano(), uint8(WakeChallenge), "123", []byte(nil))
	f.Add(int64(-1), uint8(2), "a\x00b", wakeKey(Wake{WakeGame, "c", t0}))
	f.Fuzz(func(t *testing.T, ns int64, kind uint8, channel string, k []byte) {
		if w, err := parseWakeKey(k); err == nil {
			assert.Equal(t, k, wakeKey(w), "a key that parses is the key of what it parses to")
		} else {
			assert.ErrorIs(t, err, ErrCorrupt)
		}
		w := Wake{WakeKind(kind), channel, time.Unix(0, ns)}
		got, err := parseWakeKey(wakeKey(w))
		if !wakeNames.valid(kind) || checkID("channel", channel) != nil {
			assert.Error(t, err)
			return
		}
		require.NoError(t, err)
		assert.Equal(t, w.Kind, got.Kind)
		assert.Equal(t, w.ChannelID, got.ChannelID)
		assert.True(t, w.At.Equal(got.At))
	})
}

// FuzzKeyOrder checks that keys sort as the times and ratings they encode.
func FuzzKeyOrder(f *testing.F) {
	f.Add(int64(0), int64(1), 1500.0, 1499.9)
	f.Add(int64(-5), int64(5), -0.5, 0.0)
	f.Fuzz(func(t *testing.T, a, b int64, x, y float64) {
		ta, tb := time.Unix(0, a), time.Unix(0, b)
		assert.Equal(t, ta.Compare(tb), cmpUint(timeBits(ta), timeBits(tb)))
		assert.True(t, bitsTime(timeBits(ta)).Equal(ta))
		if math.IsNaN(x) || math.IsNaN(y) || x == 0 && y == 0 {
			return // NaN has no order; 0 and -0 are equal but distinct
		}
		want := 0
		switch {
		case x < y:
			want = -1
		case x > y:
			want = 1
		}
		assert.Equal(t, want, cmpUint(orderedFloat(x), orderedFloat(y)))
	})
}

// cmpUint compares a and b as bytes.Compare does.
func cmpUint(a, b uint64) int {
	return bytes.Compare(key(nil).u64(a), key(nil).u64(b))
}

// FuzzEnumText checks the names of the enumerations: a name that parses
// is written back the same, and anything else is refused with the list of
// names.
func FuzzEnumText(f *testing.F) {
	for _, s := range []string{"games", "challenges", "Games", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		type enum interface {
			encoding.TextMarshaler
			encoding.TextUnmarshaler
		}
		for _, v := range []enum{new(Sequence)} {
			err := v.UnmarshalText([]byte(s))
			if err != nil {
				assert.ErrorIs(t, err, ErrInvalid)
				assert.ErrorContains(t, err, "is not one of")
				continue
			}
			b, err := v.MarshalText()
			require.NoError(t, err)
			assert.Equal(t, s, string(b))
		}
	})
}

func TestEnumOutOfRange(t *testing.T) {
	_, err := Sequence(7).MarshalText()
	assert.ErrorIs(t, err, ErrInvalid)
	assert.Equal(t, "Sequence(7)", Sequence(7).String())
	assert.Equal(t, "WakeKind(9)", WakeKind(9).String())
	assert.Equal(t, "challenge", WakeChallenge.String())
	_, err = encode(&HistoryEntry{Ladder: 7})
	assert.True(t, errors.Is(err, ErrInvalid), "a value that cannot be written is refused: %v", err)
}
