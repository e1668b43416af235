package loadtest

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseVmHWM(t *testing.T) {
	cases := []struct {
		name, status string
		want         int64
		bad          bool
	}{
		{name: "status", status: "Name:\tkulamibot\nVmPeak:\t 2000 kB\nVmHWM:\t  123456 kB\nVmRSS:\t 1000 kB\n", want: 123456 << 10},
		{name: "no line", status: "Name:\tkulamibot\n", bad: true},
		{name: "no unit", status: "VmHWM:\t123\n", bad: true},
		{name: "not a number", status: "VmHWM:\tlots kB\n", bad: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := parseVmHWM([]byte(c.status))
			if c.bad {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.want, got)
		})
	}
}

// FuzzParseVmHWM checks that parseVmHWM never panics and reads no
// negative size.
func FuzzParseVmHWM(f *testing.F) {
	f.Add([]byte("VmHWM:\t  123456 kB\n"))
	f.Add([]byte("VmHWM: -1 kB"))
	f.Fuzz(func(t *testing.T, status []byte) {
		if n, err := parseVmHWM(status); err == nil {
			assert.GreaterOrEqual(t, n, int64(0))
		}
	})
}

func TestParseVmHWMOfThisProcess(t *testing.T) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc on this system")
	}
	n, err := parseVmHWM(b)
	require.NoError(t, err)
	assert.Positive(t, n)
}
