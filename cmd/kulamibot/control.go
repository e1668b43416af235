package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/kulami/kulami/storage"
)

// The control socket lets `kulamibot backup` ask a running bot for a
// backup: the database file is locked while the bot runs, so only the bot
// can read it. It is a Unix socket next to the database that only its
// owner can connect to, from its creation on (listenOwnerOnly). The protocol is one line each way:
// "backup /absolute/path\n", answered "ok <bytes>\n" or "error <message>\n".

// controlPath is the control socket of the database at dbPath.
func controlPath(dbPath string) string { return dbPath + ".sock" }

// serveControl listens on the control socket until ctx is done; it returns
// a function that stops it. Without a socket (a path too long, a file
// system that has none) the bot runs on and backups need it stopped.
func serveControl(ctx context.Context, store *storage.Store, log *slog.Logger) func() {
	path := controlPath(store.Path())
	os.Remove(path) // left by a bot that crashed; we hold the database lock
	ln, err := listenOwnerOnly(path)
	if err != nil {
		log.Warn("no control socket: kulamibot backup works only while the bot is stopped", "path", path, "err", err)
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go handleControl(ctx, conn, store, log)
		}
	}()
	stop := context.AfterFunc(ctx, func() { ln.Close() })
	return func() {
		stop()
		ln.Close()
		<-done
	}
}

func handleControl(ctx context.Context, conn net.Conn, store *storage.Store, log *slog.Logger) {
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Minute))
	line, err := bufio.NewReader(io.LimitReader(conn, 8192)).ReadString('\n')
	if err != nil {
		return
	}
	cmd, arg, _ := strings.Cut(strings.TrimSpace(line), " ")
	if cmd != "backup" || !filepath.IsAbs(arg) {
		fmt.Fprintf(conn, "error unknown request; send: backup /absolute/path\n")
		return
	}
	if err := store.BackupFile(ctx, arg); err != nil {
		fmt.Fprintf(conn, "error %s\n", strings.ReplaceAll(err.Error(), "\n", " "))
		return
	}
	fi, err := os.Stat(arg)
	if err != nil {
		fmt.Fprintf(conn, "error %s\n", err)
		return
	}
	log.Info("backup written", "file", arg, "bytes", fi.Size())
	fmt.Fprintf(conn, "ok %d\n", fi.Size())
}

// backup writes a consistent copy of the database to file: through the
// running bot if there is one, else by opening the database itself.
func backup(ctx context.Context, cfg Config, file string, out io.Writer) error {
	if cfg.Storage.Backend == "postgres" {
		return fmt.Errorf("backup: it copies a bbolt file, and storage.backend is \"postgres\": back up %s with pg_dump, or copy it into a file with kulamibot migrate --to %s", cfg.Storage.where(), file)
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return err
	}
	// Written over, the control socket would be gone while the bot runs,
	// and the backup removed when it next starts.
	if socket, err := filepath.Abs(controlPath(cfg.Storage.Path)); err == nil && socket == abs {
		return fmt.Errorf("backup: %s is the bot's control socket, not a file; name another file, as in: kulamibot backup kulami-backup.db", file)
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", controlPath(cfg.Storage.Path))
	if err == nil {
		defer conn.Close()
		fmt.Fprintf(conn, "backup %s\n", abs)
		reply, err := bufio.NewReader(conn).ReadString('\n')
		if err != nil {
			return fmt.Errorf("backup: the running bot did not answer: %w", err)
		}
		status, rest, _ := strings.Cut(strings.TrimSpace(reply), " ")
		if status != "ok" {
			return fmt.Errorf("backup: %s", rest)
		}
		fmt.Fprintf(out, "Wrote %s (%s bytes), a copy of %s taken by the running bot.\n", file, rest, cfg.Storage.Path)
		return nil
	}
	if _, statErr := os.Stat(cfg.Storage.Path); errors.Is(statErr, os.ErrNotExist) {
		return fmt.Errorf("backup: there is no database at %s (storage.path); nothing to back up", cfg.Storage.Path)
	}
	store, err := storage.Open(cfg.Storage.Path, storage.Options{})
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer store.Close()
	if err := store.BackupFile(ctx, abs); err != nil {
		return err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Wrote %s (%d bytes), a copy of %s.\n", file, fi.Size(), cfg.Storage.Path)
	return nil
}
