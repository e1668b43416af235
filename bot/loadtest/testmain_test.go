package loadtest

import (
	"testing"

	"github.com/kulami/kulami/storage/postgres/pgtest"
)

// TestMain stops the PostgreSQL server that the tests may start (see
// pgtest), and removes the kulamibot they built.
func TestMain(m *testing.M) { pgtest.Main(m, removeBuild) }
