package review_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine/review"
)

// FuzzAnalysisJSON checks that any analysis read from JSON writes back to
// JSON that reads as the same analysis: what is stored can be read again.
func FuzzAnalysisJSON(f *testing.F) {
	f.Add(`{"version":1,"playouts":300000,"seed":1,"moves":[{"ply":1,"color":"red","cell":"A8","best":"D4","before":0.587,"after":0.512,"cost":0.075}]}`)
	f.Add(`{"version":1,"moves":[{"ply":47,"color":"black","cell":"H4","best":"E8","before":1,"before_proven":true,"after":0,"after_proven":true,"cost":1}]}`)
	f.Add(`{"moves":[{"color":"RED","cell":"j10"}]}`)
	f.Add(`{"moves":null}`)
	f.Fuzz(func(t *testing.T, s string) {
		var a review.Analysis
		if json.Unmarshal([]byte(s), &a) != nil {
			return
		}
		b, err := json.Marshal(&a)
		require.NoError(t, err)
		var back review.Analysis
		require.NoError(t, json.Unmarshal(b, &back), "%s", b)
		assert.Equal(t, a, back)
		again, err := json.Marshal(&back)
		require.NoError(t, err)
		assert.Equal(t, string(b), string(again))
	})
}
