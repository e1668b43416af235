package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/kulami/kulami/engine"
)

// maxRecordBytes bounds what replay reads: a record of a whole game is a
// few kilobytes, so more is not a record.
const maxRecordBytes = 1 << 20

// recordName returns the name of the one record a command reads, from the
// arguments left after its flags: a file name, or "-" (standard input) when
// there is none.
func recordName(command string, rest []string) (string, error) {
	switch len(rest) {
	case 0:
		return "-", nil
	case 1:
		return rest[0], nil
	}
	return "", usagef("%s reads one record, but got %d arguments: %s", command, len(rest), strings.Join(rest, " "))
}

// displayName is how messages name the input file.
func displayName(name string) string {
	if name == "-" {
		return "standard input"
	}
	return name
}

// loadRecord reads and parses the record in the file name, or on stdin
// for "-". Its errors name the input.
func (e *env) loadRecord(ctx context.Context, name string) (*engine.Record, error) {
	text, err := e.readRecord(ctx, name)
	if err != nil {
		return nil, err
	}
	rec, err := engine.ParseRecord(string(text))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", displayName(name), err)
	}
	return rec, nil
}

// readRecord reads the file name, or stdin for "-", up to maxRecordBytes.
// A cancelled ctx stops the wait for input.
func (e *env) readRecord(ctx context.Context, name string) ([]byte, error) {
	r := e.stdin
	if name == "-" {
		if isTerminal(r) {
			fmt.Fprintln(e.stderr, "kulami: reading a record from the terminal; end it with Ctrl-D (or give a file name)")
		}
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	type result struct {
		text []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		b, err := io.ReadAll(io.LimitReader(r, maxRecordBytes+1))
		done <- result{b, err}
	}()
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case res := <-done:
		switch {
		case res.err != nil:
			return nil, fmt.Errorf("read %s: %w", displayName(name), res.err)
		case len(res.text) > maxRecordBytes:
			return nil, fmt.Errorf("%s is larger than %d KiB; a game record is a few KiB", displayName(name), maxRecordBytes>>10)
		}
		return res.text, nil
	}
}
