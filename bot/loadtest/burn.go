package loadtest

import (
	"os/exec"
	"testing"
)

// burn starts n busy loops, processes of their own (a shell's `while :`),
// as other work on the machine would be: each keeps a core busy when it
// gets one, so n of them add about n to the load average. It returns the
// function that stops them (also called when the test ends), each by its
// own process ID.
func burn(tb testing.TB, n int) (stop func()) {
	tb.Helper()
	var loops []*exec.Cmd
	stop = func() {
		for _, c := range loops {
			_ = c.Process.Kill()
			_ = c.Wait()
		}
		loops = nil
	}
	tb.Cleanup(stop)
	for range n {
		c := exec.Command("sh", "-c", "while :; do :; done")
		if err := c.Start(); err != nil {
			tb.Fatalf("loadtest: start a busy loop: %v", err)
		}
		loops = append(loops, c)
	}
	return stop
}
