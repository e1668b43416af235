package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestColor(t *testing.T) {
	assert.Equal(t, Black, Red.Other())
	assert.Equal(t, Red, Black.Other())
	assert.Equal(t, "red", Red.String())
	assert.Equal(t, "black", Black.String())
	assert.Equal(t, "Red", Red.Title())
	assert.Equal(t, "Black", Black.Title())
	assert.Equal(t, "Color(7)", Color(7).String())
}

func TestParseColor(t *testing.T) {
	tests := []struct {
		in   string
		want Color
	}{
		{"Red", Red}, {"red", Red}, {"RED", Red}, {"rEd", Red},
		{"Black", Black}, {"black", Black}, {"BLACK", Black},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			c, err := ParseColor(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, c)
		})
	}
	for _, in := range []string{"", "r", "white", "Red ", " black", "redd", "blacK!"} {
		t.Run(in, func(t *testing.T) {
			_, err := ParseColor(in)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "Red or Black")
		})
	}
}
