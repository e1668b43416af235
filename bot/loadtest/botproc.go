package loadtest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// botPackage is the import path of the bot's main package.
const botPackage = "github.com/kulami/kulami/cmd/kulamibot"

// The kulamibot that buildBot built for the tests of this process, once.
var (
	buildOnce sync.Once
	builtDir  string // removed by removeBuild, at the end of the tests
	built     string
	buildErr  error
)

// buildBot builds kulamibot, once for all the tests of the process, into
// a temporary directory, and returns its path.
func buildBot(tb testing.TB) string {
	tb.Helper()
	buildOnce.Do(func() {
		if builtDir, buildErr = os.MkdirTemp("", "kulami-loadtest-"); buildErr != nil {
			return
		}
		built = filepath.Join(builtDir, "kulamibot")
		if out, err := exec.Command("go", "build", "-o", built, botPackage).CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("%w\n%s", err, out)
		}
	})
	if buildErr != nil {
		tb.Fatalf("loadtest: build kulamibot: %v", buildErr)
	}
	return built
}

// removeBuild removes what buildBot built, when the tests are over.
func removeBuild() {
	if builtDir != "" {
		_ = os.RemoveAll(builtDir)
	}
}

// botProcess is a kulamibot running in a process of its own.
type botProcess struct {
	cmd  *exec.Cmd
	url  string        // base URL of its HTTP endpoint
	logs string        // the file of its logs
	done chan struct{} // closed when the process has exited
	err  error         // how it exited, once done is closed
}

// startBot starts the kulamibot binary bin in a fresh directory with the
// settings of env (KULAMI_* variables; any of the caller's are dropped),
// listening on a free local port, and waits until it answers /healthz.
// With cpu 0 or more, the process runs on that CPU alone (taskset, and
// GOMAXPROCS=1). The process is killed when the test ends, unless stopped
// before.
func startBot(tb testing.TB, bin string, env map[string]string, cpu int) *botProcess {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatalf("loadtest: find a free port: %v", err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	dir := tb.TempDir()
	logs := filepath.Join(dir, "kulamibot.log")
	logFile, err := os.Create(logs)
	if err != nil {
		tb.Fatalf("loadtest: %v", err)
	}
	cmd := exec.Command(bin)
	if cpu >= 0 {
		cmd = exec.Command("taskset", "--cpu-list", strconv.Itoa(cpu), bin)
		env["GOMAXPROCS"] = "1"
	}
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "KULAMI_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	env["KULAMI_DISCORD_MODE"] = "http"
	env["KULAMI_HTTP_LISTEN"] = addr
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		tb.Fatalf("loadtest: start kulamibot: %v", err)
	}
	p := &botProcess{cmd: cmd, url: "http://" + addr, logs: logs, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		_ = logFile.Close()
		close(p.done)
	}()
	tb.Cleanup(func() { _ = cmd.Process.Kill() })

	deadline := time.Now().Add(time.Minute)
	for {
		resp, err := http.Get(p.url + "/healthz")
		if err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return p
			}
		}
		select {
		case <-p.done:
			out, _ := os.ReadFile(logs)
			tb.Fatalf("loadtest: kulamibot exited at start (%v):\n%s", p.err, out)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			tb.Fatalf("loadtest: kulamibot does not answer %s/healthz", p.url)
		}
	}
}

// peakRSS is the most resident memory the process has used so far
// (VmHWM), in bytes.
func (p *botProcess) peakRSS() (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	return parseVmHWM(b)
}

// parseVmHWM reads the VmHWM line of a /proc/<pid>/status file, in bytes.
func parseVmHWM(status []byte) (int64, error) {
	sc := bufio.NewScanner(bytes.NewReader(status))
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:")
		if !ok {
			continue
		}
		kb, ok := strings.CutSuffix(strings.TrimSpace(rest), " kB")
		n, err := strconv.ParseInt(strings.TrimSpace(kb), 10, 64)
		if !ok || err != nil || n < 0 {
			return 0, fmt.Errorf("VmHWM line %q is not \"<n> kB\"", sc.Text())
		}
		return n << 10, nil
	}
	return 0, errors.New("no VmHWM line in the process status")
}

// stop asks the bot to shut down, as a service manager does, and waits
// for it to exit.
func (p *botProcess) stop() error {
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return err
	}
	select {
	case <-p.done:
		return p.err
	case <-time.After(time.Minute):
		_ = p.cmd.Process.Kill()
		return errors.New("kulamibot did not stop within a minute of SIGTERM")
	}
}

// kill kills the process with SIGKILL, as a crash or the OOM killer
// would: no shutdown, nothing flushed; and waits for it to be gone.
func (p *botProcess) kill() error {
	if err := p.cmd.Process.Kill(); err != nil {
		return err
	}
	<-p.done
	return nil
}

// logLines returns up to n lines of the bot's log that contain one of
// marks, and how many there are in all.
func (p *botProcess) logLines(n int, marks ...string) (lines []string, total int) {
	f, err := os.Open(p.logs)
	if err != nil {
		return []string{err.Error() + "\n"}, 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		for _, m := range marks {
			if strings.Contains(sc.Text(), m) {
				total++
				if len(lines) < n {
					lines = append(lines, sc.Text()+"\n")
				}
				break
			}
		}
	}
	return lines, total
}

// logTail returns the last n lines of the bot's log.
func (p *botProcess) logTail(n int) string {
	b, err := os.ReadFile(p.logs)
	if err != nil {
		return err.Error()
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(b), "\n"), "\n")
	return strings.Join(lines[max(len(lines)-n, 0):], "")
}
