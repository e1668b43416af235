package drawtest

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPackageArg: the messages of AssertGolden name the package under
// test as go test takes it from the module's root.
func TestPackageArg(t *testing.T) {
	assert.Equal(t, "./draw/drawtest", packageArg())
}
