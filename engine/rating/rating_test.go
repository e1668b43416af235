package rating_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine/rating"
)

func TestNew(t *testing.T) {
	assert.Equal(t, rating.Rating{Rating: 1500, RD: 350, Volatility: 0.06}, rating.New())
	assert.True(t, rating.Provisional(rating.New()), "a new player is provisional")
}

func TestProvisional(t *testing.T) {
	tests := []struct {
		rd   float64
		want bool
	}{
		{rd: 350, want: true},
		{rd: 110, want: true},
		{rd: 109.99, want: false},
		{rd: 45, want: false},
	}
	for _, tt := range tests {
		t.Run("", func(t *testing.T) {
			r := rating.Rating{Rating: 1500, RD: tt.rd, Volatility: 0.06}
			assert.Equal(t, tt.want, rating.Provisional(r), "RD %v", tt.rd)
		})
	}
}

func TestRatingJSON(t *testing.T) {
	r := rating.Rating{Rating: 1662.5, RD: 290.25, Volatility: 0.0599}
	b, err := json.Marshal(r)
	require.NoError(t, err)
	assert.JSONEq(t, `{"rating":1662.5,"rd":290.25,"volatility":0.0599}`, string(b))

	var back rating.Rating
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, r, back)
}
