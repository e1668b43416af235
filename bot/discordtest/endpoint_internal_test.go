package discordtest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEndpointsInSpec checks the fake's route tables: every operation it
// implements is one of Discord's OpenAPI description, and only one
// handler serves it.
func TestEndpointsInSpec(t *testing.T) {
	t.Parallel()
	sp, err := loadSpec()
	require.NoError(t, err)
	ops := map[string]bool{}
	for _, r := range sp.routes {
		for method := range r.ops {
			ops[method+" "+r.template] = true
		}
	}
	seen := map[string]bool{}
	for _, table := range endpointTables {
		for _, e := range table {
			assert.True(t, ops[e.key], "%s is an operation of the description", e.key)
			assert.False(t, seen[e.key], "%s is served once", e.key)
			seen[e.key] = true
		}
	}
	assert.Len(t, endpoints(), len(seen))
}
