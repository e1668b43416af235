package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// A cluster is a PostgreSQL server that a test process started for
// itself: its data, its log and its socket are in a temporary folder,
// and it listens on a free port of 127.0.0.1.
type cluster struct {
	c   choice
	dir string // the temporary folder
	dsn string // its database test
}

// startCluster starts a server from the binaries of c with a database
// named test, and returns it. If it cannot, it says why, with the
// server's log, and leaves nothing behind.
func startCluster(c choice) (_ *cluster, err error) {
	dir, err := os.MkdirTemp("", "kulami-pgtest-")
	if err != nil {
		return nil, err
	}
	cl := &cluster{c: c, dir: dir}
	defer func() {
		if err != nil {
			err = fmt.Errorf("start a PostgreSQL server of the tests' own in %s: %w%s", dir, err, cl.log())
			cl.stop()
		}
	}()
	if c.asUser != "" {
		if err := chown(dir, c.asUser); err != nil {
			return nil, err
		}
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	data := filepath.Join(dir, "data")
	if err := cl.run("initdb", "-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"); err != nil {
		return nil, err
	}
	// A normal server, with PostgreSQL's defaults wherever the tests
	// check what depends on them (synchronous_commit stays on, for one:
	// a durable write waits for the WAL); only a crash of the machine is
	// not survived (fsync, full_page_writes off), which no test makes,
	// and there is room for the connections of the tests run at once.
	conf := fmt.Sprintf("\nlisten_addresses = '127.0.0.1'\nport = %d\nunix_socket_directories = '%s'\nmax_connections = 200\nfsync = off\nfull_page_writes = off\n", port, dir)
	if err := appendFile(filepath.Join(data, "postgresql.conf"), conf); err != nil {
		return nil, err
	}
	if err := cl.run("pg_ctl", "-D", data, "-l", filepath.Join(dir, "log"), "-w", "-t", "60", "start"); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	admin := fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		return nil, err
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE test"); err != nil {
		return nil, err
	}
	cl.dsn = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/test?sslmode=disable", port)
	return cl, nil
}

// stop stops the server at once, as nothing in it is to be kept, and
// removes its folder.
func (cl *cluster) stop() error {
	var err error
	if _, statErr := os.Stat(filepath.Join(cl.dir, "data", "postmaster.pid")); statErr == nil {
		err = cl.run("pg_ctl", "-D", filepath.Join(cl.dir, "data"), "-m", "immediate", "-w", "stop")
	}
	return errors.Join(err, os.RemoveAll(cl.dir))
}

// run runs the PostgreSQL program name with args, as the choice's user
// if it has one; the error has what the program printed.
func (cl *cluster) run(name string, args ...string) error {
	cmd := exec.Command(filepath.Join(cl.c.bin, name), args...)
	if cl.c.asUser != "" {
		cmd = exec.Command("runuser", append([]string{"-u", cl.c.asUser, "--", cmd.Path}, args...)...)
	}
	cmd.Dir = cl.dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s: %w\n%s", strings.Join(cmd.Args, " "), err, out)
	}
	return nil
}

// log returns the end of the server's log, to say why it failed, or "".
func (cl *cluster) log() string {
	b, err := os.ReadFile(filepath.Join(cl.dir, "log"))
	if err != nil || len(b) == 0 {
		return ""
	}
	const tail = 4000
	if len(b) > tail {
		b = b[len(b)-tail:]
	}
	return "\nthe end of the server's log:\n" + string(b)
}

// freePort returns a TCP port of 127.0.0.1 that nothing listens on.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// chown gives the folder dir to the user name.
func chown(dir, name string) error {
	u, err := user.Lookup(name)
	if err != nil {
		return err
	}
	uid, err := strconv.Atoi(u.Uid)
	if err != nil {
		return err
	}
	gid, err := strconv.Atoi(u.Gid)
	if err != nil {
		return err
	}
	return os.Chown(dir, uid, gid)
}

// appendFile appends s to the file path.
func appendFile(path, s string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(s)
	return errors.Join(err, f.Close())
}
